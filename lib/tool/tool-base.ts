import type { ParamsSchema, Static } from '../schema/schema-types';
import type { Availability } from '../context/availability';
import type { DescriptionSource } from '../context/context-description';
import type { PermissionContext } from '../permissions/permission-context';
import type { PermissionDecision } from '../permissions/permission-decision';
import { withAgentState, type ToolInvocation } from './agent-state';
import type { ActionOptions } from './action-options';
import { Tool, type Invocation } from './tool';
import { ToolDefinitionError } from './tool-definition-error';
import type { ToolEffect } from './tool-effect';
import type { ToolTraitsInit } from './tool-traits';

/** What a hand-written tool passes to `super(...)`. */
export interface ToolDefinition<P extends ParamsSchema = ParamsSchema> extends Omit<ToolTraitsInit, 'checkPermissions'> {
  readonly name: string;
  readonly description: string | DescriptionSource;
  /** The params object schema (TypeBox). */
  readonly inputSchema: P;
  /** The group (default `"basic"`, always active). */
  readonly group?: string | undefined;
  readonly effects?: readonly ToolEffect[] | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly availableWhen?: Availability | undefined;
  /** Whether a call needs approval: always, never (default), or when the predicate says so for the call's params. */
  readonly requiresApproval?: boolean | ((params: Static<P>) => boolean) | undefined;
  /** {@inheritDoc ToolPermissionHooks.matchRule} */
  readonly matchRule?: ToolTraitsInit['matchRule'];
  /** {@inheritDoc ToolPermissionHooks.generateSuggestions} */
  readonly generateSuggestions?: ToolTraitsInit['generateSuggestions'];
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

const NO_BODY = (): never => {
  throw new ToolDefinitionError('ToolBase tools run through call().');
};

/**
 * The base class of hand-written tools. Pass the attributes to `super(...)`,
 * implement `checkPermissions` (required) and `call` (not for external tools), and override
 * `checkReadOnly`, `matchRule` or `generateSuggestions` as needed. An instance is a `Tool`: register it with
 * `tools.register(instance)` beside `@Action` classes.
 *
 * `call(input, invocation)` receives validated params and may return a value, an `ActionResult`, a `ToolChunk`, or
 * an async iterable of chunks (an `async *call`). With `isStateInjected`, `invocation.state` is the agent state.
 *
 * @example
 * ```ts
 * class WebSearch extends ToolBase<typeof SearchInput> {
 *   constructor() { super({ name: 'WebSearch', description: 'Search the web.', inputSchema: SearchInput, isReadOnly: true, isConcurrencySafe: true }); }
 *   checkPermissions() { return PermissionDecision.allow('Web search is read-only.'); }
 *   override async call({ query }: Static<typeof SearchInput>) { return ToolChunk.text(await search(query), { state: ToolResultState.SUCCESS }); }
 * }
 * ```
 * @throws ToolDefinitionError from the constructor when the definition is invalid, or when a tool that is not
 *   external does not implement `call`.
 */
export abstract class ToolBase<P extends ParamsSchema = ParamsSchema> extends Tool {
  constructor(definition: ToolDefinition<P>) {
    const { name, description, inputSchema, group, effects, tags, metadata, availableWhen, requiresApproval, returns, examples, title, icons, meta, outputBudget, ...traits } = definition;
    super({
      name,
      description,
      group: group ?? 'basic',
      source: `${new.target.name} '${name}'`,
      params: inputSchema,
      options: { effects, tags, metadata, availableWhen, returns, examples: examples as ActionOptions['examples'], title, icons, meta, outputBudget },
      approval: (requiresApproval as boolean | ((params: never) => boolean) | undefined) ?? false,
      body: NO_BODY,
      traits,
    });
    if (!this.isExternalTool && this.call === ToolBase.prototype.call) {
      throw new ToolDefinitionError(`${this.source}: implement call(input, invocation), or set isExternalTool: true for a tool the host executes.`);
    }
  }

  /** The tool's own permission verdict (required). */
  abstract override checkPermissions(input: Static<P>, context: PermissionContext): PermissionDecision | Promise<PermissionDecision>;

  /** The tool's execution logic: see the class docs for what it may return. */
  call(_input: Static<P>, _invocation: ToolInvocation): unknown {
    throw new ToolDefinitionError(`${this.source} is executed externally: hand its calls to the host (tools.completeExternal).`);
  }

  /** Dispatches to {@link call}, with the agent state when `isStateInjected`. Do not override. */
  override invoke(params: Record<string, unknown>, invocation: Invocation): unknown {
    return this.checkOutput(this.call(params as Static<P>, withAgentState(invocation, this.isStateInjected, this.source)));
  }
}
