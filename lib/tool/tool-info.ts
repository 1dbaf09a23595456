import type { PermissionContext } from '../permissions/permission-context';
import type { PermissionRule } from '../permissions/permission-rule';
import type { JsonSchema } from '../schema/json-schema';
import type { ToolChunk } from '../streaming/tool-chunk';
import type { Invocation } from './invocation';
import type { ToolEffect } from './tool-effect';

/**
 * What per-tool middleware and the default permission hooks see of a tool: its identity, its declared traits and
 * the calls they need. {@link Tool} implements it; these types live apart from the class so that the streaming and
 * permission helpers the class uses do not import the class back.
 */
export interface ToolInfo {
  readonly name: string;
  /** The group the tool belongs to. */
  readonly group: string;
  /** `Class.method` or `tool '<name>'`, named in errors. */
  readonly source: string;
  /** What calls do to the world. */
  readonly effects: ReadonlySet<ToolEffect>;
  readonly tags: ReadonlySet<string>;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The params schema as plain, frozen JSON Schema. */
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  readonly isConcurrencySafe: boolean;
  readonly isReadOnly: boolean;
  readonly isExternalTool: boolean;
  readonly isStateInjected: boolean;
  readonly isMcp: boolean;
  readonly mcpName: string | undefined;
  /** Per-tool onion middleware, first = outermost. */
  readonly middlewares: readonly ToolChunkMiddleware[];
  /** True when some calls of this tool need the user's confirmation. */
  readonly requiresApproval: boolean;
  /** Whether the tool declares `effect`. */
  hasEffect(effect: ToolEffect): boolean;
  /** Whether this particular call needs confirmation. */
  needsApproval(args: unknown): boolean;
  /** Whether this call only reads. */
  checkReadOnly(input: Record<string, unknown>): boolean;
  /** Rules that would allow this call next time. */
  generateSuggestions(input: Record<string, unknown>, context?: PermissionContext): PermissionRule[];
  /** Runs the tool's code with validated params. */
  invoke(params: Record<string, unknown>, invocation: Invocation): unknown;
}

/** The rest of a tool's own chain: call it with the (possibly changed) input; it always yields chunks. */
export type ChunkHandler = (input: Record<string, unknown>) => AsyncIterable<ToolChunk>;

/**
 * Per-tool onion middleware. Attached to one tool (the `middlewares` option of `@Action`, `FunctionTool` or
 * `ToolBase`), it wraps that tool's own execution wherever it is called (`tools.execute`, `tools.stream`, or
 * `tool.stream(...)` outside any registry): the first registered is the outermost; `next(input)` always yields chunks,
 * whether the tool streams or not, so one implementation serves both.
 *
 * Use it for concerns that belong to the tool (retry, metrics, redaction of its output). Use a registry
 * `ToolMiddleware` for concerns of the call slot (timeouts, permission gates, auditing every tool): those run
 * outside, before and after this chain, and see the whole call and its final result.
 *
 * Whatever it throws fails the call like an exception from the tool.
 */
export interface ToolChunkMiddleware {
  /** Wraps one call: yields the chunks of `next(input)` (mapped, filtered or added to) for the call of `tool`. */
  onToolCall(tool: ToolInfo, input: Record<string, unknown>, next: ChunkHandler, invocation: Invocation): AsyncIterable<ToolChunk>;
}
