import type { ObjectSchema, Schema } from '../schema/schema-types';
import { OptionalKind } from '../schema/json-schema';
import { ToolContext, MissingDependencyError } from '../context/tool-context';
import type { InjectRecord, ParamRecord } from '../metadata/records';
import { scanClass, type ScannedAction } from '../metadata/scanner';
import { agentStateTraits } from './agent-state';
import { Tool, type Invocation, type ToolBody } from './tool';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * Builds one {@link Tool} per `@Action` method of `instance`'s class (scanned once per class), bound to the instance.
 * @throws ToolDefinitionError when a method cannot be a tool (the message names class, method and parameter).
 */
export function toolsFromInstance(instance: object): Tool[] {
  const ctor = instance.constructor as abstract new (...args: never[]) => unknown;
  const scanned = scanClass(ctor);
  if (scanned.actions.length === 0) {
    throw new ToolDefinitionError(`${ctor.name} has no @Action methods, so registering it adds no tool. Decorate its tool methods with @Action(...).`);
  }
  return scanned.actions.map(
    (action) =>
      new Tool({
        name: action.action.options.name ?? String(action.member),
        description: action.action.description,
        group: scanned.group.name,
        source: action.where,
        params: paramsOf(action),
        options: action.action.options,
        approval: action.approval ? (action.approval.predicate ?? true) : (action.action.options.requiresApproval ?? false),
        body: bodyOf(instance, action),
        traits: agentStateTraits(action.injects.map((i) => i.token)),
      }),
  );
}

type Slot = { kind: 'params' } | { kind: 'field'; name: string } | { kind: 'inject'; record: InjectRecord };

function slotsOf(action: ScannedAction): Slot[] {
  const usesParams = action.action.options.params !== undefined;
  if (usesParams && action.params.length > 0) {
    throw new ToolDefinitionError(`${action.where}: use either the params option or @Param on each parameter, not both.`);
  }
  const count = Math.max(action.paramTypes.length, ...action.params.map((p) => p.index + 1), ...action.injects.map((i) => i.index + 1), usesParams ? 1 : 0);
  const slots: Slot[] = [];
  for (let index = 0; index < count; index++) {
    const inject = action.injects.find((i) => i.index === index);
    const param = action.params.find((p) => p.index === index);
    if (inject) slots.push({ kind: 'inject', record: inject });
    else if (param) slots.push({ kind: 'field', name: param.name });
    else if (usesParams && index === 0) slots.push({ kind: 'params' });
    else {
      throw new ToolDefinitionError(
        `${action.where}: parameter #${index} has neither @Param nor @Inject. Name it with @Param('name'), inject it with @Inject(Token), ` +
          `or pass a params schema to @Action and take the params object first.`,
      );
    }
  }
  return slots;
}

function paramsOf(action: ScannedAction): ObjectSchema {
  if (action.action.options.params !== undefined) return action.action.options.params;
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const param of [...action.params].sort((a, b) => a.index - b.index)) {
    if (Object.hasOwn(properties, param.name)) throw new ToolDefinitionError(`${action.where}: two parameters are named '${param.name}'. Give each @Param a distinct name.`);
    Object.defineProperty(properties, param.name, { value: fieldSchema(action, param), enumerable: true, writable: true, configurable: true });
    if (!param.optional && (param.schema as Record<symbol, unknown> | undefined)?.[OptionalKind] !== 'Optional') required.push(param.name);
  }
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  return schema as unknown as ObjectSchema;
}

function fieldSchema(action: ScannedAction, param: ParamRecord): Schema {
  let schema = param.schema ?? reflectedSchema(action.paramTypes[param.index]);
  if (schema === undefined) {
    if (action.paramTypes.length === 0) {
      throw new ToolDefinitionError(
        `${action.where}: parameter #${param.index} '${param.name}' has no schema and TypeScript emitted no parameter types for this method. ` +
          `Enable "emitDecoratorMetadata" (and "experimentalDecorators") in tsconfig.json (esbuild and tsx do not emit it), or pass a schema: @Param('${param.name}', Type.String()).`,
      );
    }
    const type = action.paramTypes[param.index];
    const typeName = typeof type === 'function' ? type.name : String(type);
    throw new ToolDefinitionError(
      `${action.where}: parameter #${param.index} '${param.name}' has reflected type ${typeName}, which does not say what JSON it takes. ` +
        `Pass a schema: @Param('${param.name}', Type.Array(Type.String())) or similar.`,
    );
  }
  if (param.description !== undefined) schema = { ...schema, description: param.description };
  return schema;
}

function reflectedSchema(type: unknown): Schema | undefined {
  const json = type === String ? 'string' : type === Number ? 'number' : type === Boolean ? 'boolean' : undefined;
  return json === undefined ? undefined : ({ type: json } as unknown as Schema);
}

function bodyOf(instance: object, action: ScannedAction): ToolBody {
  const method = (instance as Record<string | symbol, unknown>)[action.member];
  if (typeof method !== 'function') {
    throw new ToolDefinitionError(`${action.where} is not a method on the registered instance. Register an instance of the class that declares it.`);
  }
  const slots = slotsOf(action);
  if (slots.length === 1 && slots[0]!.kind === 'params') return (params) => method.call(instance, params);
  if (slots.length === 0) return () => method.call(instance);
  return (params, invocation) => {
    const args = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      args[i] = slot.kind === 'params' ? params : slot.kind === 'field' ? params[slot.name] : injected(slot.record, invocation, action.where);
    }
    return method.apply(instance, args);
  };
}

/** Resolves one `@Inject` parameter for a call; `AbortSignal` and `ToolContext` are the call's own. */
export function injected(record: InjectRecord, invocation: Invocation, where: string): unknown {
  const token = record.token;
  if (token === AbortSignal) return invocation.signal;
  if (token === ToolContext) return invocation.context;
  const value = invocation.context.resolve(token);
  if (value !== undefined) return value;
  if (record.optional) return record.defaultValue;
  throw new MissingDependencyError(token, where);
}
