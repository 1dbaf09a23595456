import type { ObjectSchema, ParamsSchema, Schema } from '../schema/schema-types';
import { OptionalKind } from '../schema/json-schema';
import { isStandardJsonSchema, standardToJsonSchema } from '../schema/standard-schema';
import { ToolContext, MissingDependencyError } from '../context/tool-context';
import type { InjectRecord, ParamRecord } from '../metadata/records';
import { scanClass, type ScannedAction } from '../metadata/scanner';
import { agentStateTraits } from './agent-state';
import { Tool, type Invocation, type ToolBody } from './tool';
import { ToolDefinitionError } from './tool-definition-error';

/**
 * How one registered instance names its tools: `tools.register({ instance, prefix, names, group })`. Lets two
 * instances of one class (one per tenant, say), or two classes inheriting the same decorated method, be registered
 * side by side.
 */
export interface InstanceNaming {
  /** Put before each tool name of this instance: `'acme_'` turns `refund` into `acme_refund`. */
  readonly prefix?: string | undefined;
  /**
   * Tool names by the name the tool would otherwise have (its `@Action` `name`, or the method name):
   * `{ refund: 'acme_refund' }`. A name given here is used as is (the prefix does not apply to it).
   */
  readonly names?: Readonly<Record<string, string>> | undefined;
  /** The group of this instance's tools, instead of the class's `@ToolGroup` name or class name. */
  readonly group?: string | undefined;
}

/**
 * Builds one {@link Tool} per `@Action` method of `instance`'s class (scanned once per class), bound to the instance.
 * @param naming - per-instance names and group ({@link InstanceNaming}).
 * @throws ToolDefinitionError when a method cannot be a tool (the message names class, method and parameter), when
 *   `names` maps a name that is not one of the class's tools, or when `instance` is a class or another function
 *   (the message says to pass an instance: `register(new MyTools(...))`).
 */
export function toolsFromInstance(instance: object, naming: InstanceNaming = {}): Tool[] {
  if (typeof instance === 'function') {
    // A class passed where its instance belongs: its @Action methods live on its prototype, which an instance reaches.
    const name = (instance as { name?: unknown }).name;
    const named = typeof name === 'string' && name !== '' ? name : undefined;
    const prototype = (instance as { prototype?: unknown }).prototype;
    const isClass = /^class\b/.test(Function.prototype.toString.call(instance)) || (typeof prototype === 'object' && prototype !== null && scanClass(instance as abstract new (...args: never[]) => unknown).actions.length > 0);
    const shown = named ?? (isClass ? 'The class' : 'The value passed');
    throw new ToolDefinitionError(
      isClass
        ? `${shown} is a class, not an instance: its @Action methods run on an instance. Pass an instance: register(new ${shown}(...)).`
        : `${shown} is a function, not an instance of a class with @Action methods. Pass an instance (register(new MyTools())), or register a function as a tool with tools.action({ name, description, params }, fn).`,
    );
  }
  const ctor = instance.constructor as abstract new (...args: never[]) => unknown;
  const scanned = scanClass(ctor);
  if (scanned.actions.length === 0) {
    throw new ToolDefinitionError(`${ctor.name} has no @Action methods, so registering it adds no tool. Decorate its tool methods with @Action(...).`);
  }
  const defaults = scanned.actions.map((action) => action.action.options.name ?? String(action.member));
  for (const key of Object.keys(naming.names ?? {})) {
    if (!defaults.includes(key)) {
      throw new ToolDefinitionError(`${ctor.name}: the names option maps '${key}', which is not one of its tools (${defaults.join(', ')}). Key the map by these names.`);
    }
  }
  const nameOf = (base: string) => (naming.names !== undefined && Object.hasOwn(naming.names, base) ? naming.names[base]! : `${naming.prefix ?? ''}${base}`);
  return scanned.actions.map(
    (action, i) =>
      new Tool({
        name: nameOf(defaults[i]!),
        description: action.action.description,
        group: naming.group ?? scanned.group.name,
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

function paramsOf(action: ScannedAction): ParamsSchema {
  if (action.action.options.params !== undefined) return action.action.options.params;
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const param of [...action.params].sort((a, b) => a.index - b.index)) {
    if (Object.hasOwn(properties, param.name)) throw new ToolDefinitionError(`${action.where}: two parameters are named '${param.name}'. Give each @Param a distinct name.`);
    Object.defineProperty(properties, param.name, { value: fieldSchema(action, param), enumerable: true, writable: true, configurable: true });
    if (!param.optional && !isOptionalSchema(param.schema)) required.push(param.name);
  }
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  return schema as unknown as ObjectSchema;
}

/**
 * Whether a field schema marks its field optional: TypeBox 0.34's `Optional` symbol, TypeBox 1.x's `~optional` flag,
 * or a Standard JSON Schema that accepts `undefined` (`z.number().optional()`, a field with a default).
 */
function isOptionalSchema(schema: Schema | undefined): boolean {
  if (schema === undefined) return false;
  if ((schema as Record<symbol, unknown>)[OptionalKind] === 'Optional' || (schema as Record<string, unknown>)['~optional'] === true) return true;
  if (!isStandardJsonSchema(schema)) return false;
  const validate = (schema['~standard'] as { validate?: unknown }).validate;
  if (typeof validate !== 'function') return false;
  try {
    const outcome = (validate as (value: unknown) => unknown)(undefined) as { issues?: unknown } | PromiseLike<unknown> | null;
    // An asynchronous check cannot be awaited at registration: such a field stays required.
    return outcome !== null && typeof outcome === 'object' && !('then' in outcome) && outcome.issues === undefined;
  } catch {
    return false;
  }
}

function fieldSchema(action: ScannedAction, param: ParamRecord): Schema {
  const given = param.schema !== undefined && isStandardJsonSchema(param.schema) ? standardField(action, param) : param.schema;
  let schema = given ?? reflectedSchema(action.paramTypes[param.index]);
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

/**
 * A Standard JSON Schema field as JSON Schema. One with definitions or local references (a recursive schema) is
 * refused: its `#...` references would resolve against the params object instead of the field.
 */
function standardField(action: ScannedAction, param: ParamRecord): Schema {
  const where = `${action.where}: parameter '${param.name}'`;
  const converted = standardToJsonSchema(param.schema as Parameters<typeof standardToJsonSchema>[0], where);
  if ('$defs' in converted || 'definitions' in converted || JSON.stringify(converted).includes('"$ref":"#')) {
    throw new ToolDefinitionError(`${where}: its schema has its own definitions ($defs), which a field cannot carry. Pass the whole params object as the params option of @Action instead.`);
  }
  return converted;
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
