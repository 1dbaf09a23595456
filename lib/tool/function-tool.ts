import type { ParamsSchema, Static } from '../schema/schema-types';
import type { Availability } from '../context/availability';
import type { DescriptionSource } from '../context/context-description';
import { PermissionDecision } from '../permissions/permission-decision';
import { withAgentState, type ToolInvocation } from './agent-state';
import type { ActionOptions } from './action-options';
import { Tool } from './tool';
import { ToolDefinitionError } from './tool-definition-error';
import type { ToolEffect } from './tool-effect';
import type { ToolChunkMiddleware } from './tool-info';
import type { ToolPermissionHooks } from './tool-traits';

const NO_PARAMS = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false });

/** Options of `new FunctionTool(fn, options)`. */
export interface FunctionToolOptions<P extends ParamsSchema> {
  /** Default: the function's name. */
  readonly name?: string | undefined;
  /** Required: TypeScript keeps no docstrings at run time. */
  readonly description: string | DescriptionSource;
  /** The params object schema: TypeBox, a Standard JSON Schema or plain JSON Schema (default: no params). */
  readonly params?: P | undefined;
  /** Default true. */
  readonly isConcurrencySafe?: boolean | undefined;
  /** Default false. */
  readonly isReadOnly?: boolean | undefined;
  /** Default false: when true, `invocation.state` is the agent state. */
  readonly isStateInjected?: boolean | undefined;
  /** The group (default `"basic"`, always active). */
  readonly group?: string | undefined;
  readonly effects?: readonly ToolEffect[] | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly availableWhen?: Availability | undefined;
  readonly middlewares?: readonly ToolChunkMiddleware[] | undefined;
  /** Replace the default permission behaviour (ASK for every call) or add rule matching. */
  readonly permissions?: ToolPermissionHooks<Static<P>> | undefined;
  /** The output schema: see `ActionOptions.returns`. */
  readonly returns?: ActionOptions<P>['returns'] | undefined;
  /** Example inputs (Anthropic `input_examples`): see `ActionOptions.examples`. */
  readonly examples?: ActionOptions<P>['examples'] | undefined;
  /** A display name for hosts (MCP `title`). */
  readonly title?: string | undefined;
  /** Icons for hosts (MCP `icons`). */
  readonly icons?: ActionOptions<P>['icons'] | undefined;
  /** Provider metadata (MCP `_meta`). */
  readonly meta?: ActionOptions<P>['meta'] | undefined;
  /** The tool's output budget: see `ActionOptions.outputBudget`. */
  readonly outputBudget?: ActionOptions<P>['outputBudget'];
}

/**
 * A plain function as a tool: concurrency-safe, not read-only, and asking permission
 * for every call by default (an allow rule or `permissions.checkPermissions` changes that). The function receives
 * the validated params and the invocation; a string result is text, anything else is JSON for the model.
 *
 * @example
 * ```ts
 * const weather = new FunctionTool(({ city }) => `22°C in ${city}`, { name: 'get_weather', description: 'Current weather.', params: Type.Object({ city: Type.String() }) });
 * tools.register(weather);
 * ```
 * @throws ToolDefinitionError when the function has no name and none is given, or the definition is invalid.
 */
export class FunctionTool<P extends ParamsSchema = ParamsSchema> extends Tool {
  constructor(fn: (params: Static<P>, invocation: ToolInvocation) => unknown, options: FunctionToolOptions<P>) {
    const name = options.name ?? fn.name;
    if (!name) throw new ToolDefinitionError('FunctionTool: the function has no name. Pass { name } in the options.');
    const source = `FunctionTool '${name}'`;
    const hooks = options.permissions ?? {};
    const injected = options.isStateInjected ?? false;
    super({
      name,
      description: options.description,
      group: options.group ?? 'basic',
      source,
      params: options.params ?? (NO_PARAMS as unknown as P),
      options: {
        effects: options.effects,
        tags: options.tags,
        metadata: options.metadata,
        availableWhen: options.availableWhen,
        returns: options.returns,
        examples: options.examples as ActionOptions['examples'],
        title: options.title,
        icons: options.icons,
        meta: options.meta,
        outputBudget: options.outputBudget,
      },
      approval: false,
      body: (params, invocation) => fn(params as Static<P>, withAgentState(invocation, injected, source)),
      traits: {
        isConcurrencySafe: options.isConcurrencySafe ?? true,
        isReadOnly: options.isReadOnly ?? false,
        isStateInjected: injected,
        middlewares: options.middlewares,
        checkPermissions: (hooks.checkPermissions as ToolPermissionHooks['checkPermissions']) ?? (() => PermissionDecision.ask(`${name} is a wrapped function: confirm each call, or allow it with a rule.`)),
        matchRule: hooks.matchRule as ToolPermissionHooks['matchRule'],
        generateSuggestions: hooks.generateSuggestions as ToolPermissionHooks['generateSuggestions'],
      },
    });
  }
}
