import type { ParamsSchema, Schema, Static, StaticInput } from '../schema/schema-types';
import type { Availability } from '../context/availability';
import type { ToolChunkMiddleware } from './tool-info';
import type { ToolEffect } from './tool-effect';
import type { ToolPermissionHooks } from './tool-traits';
import type { OutputBudget } from '../budget/output-budget';

/**
 * Options of `@Action(description, options)` and `tools.action(...)`. Everything except
 * `name` and `params` is runtime metadata for the host: it never appears in a model-facing schema.
 */
export interface ActionOptions<P extends ParamsSchema = ParamsSchema> {
  /** The tool name the model calls: letters, digits, `_` and `-`, at most 64 characters. Default: the method name. */
  name?: string | undefined;
  /**
   * The params object schema: TypeBox (`typebox` 1.x or `@sinclair/typebox` 0.34), a Standard JSON Schema (zod,
   * ArkType, valibot) or plain JSON Schema. The method then receives the validated, typed params object first.
   */
  params?: P | undefined;
  /** What a call does to the world. */
  effects?: readonly ToolEffect[] | undefined;
  /**
   * A status line for a host UI while the call runs: a template over parameter names (`"Refunding {amount}..."`,
   * checked at registration) or a function of the typed params.
   */
  status?: string | ((params: Static<P>) => string) | undefined;
  /** Free labels for grouping or filtering tools. */
  tags?: readonly string[] | undefined;
  /** Anything else the host needs, read back as `tool.metadata` (frozen). */
  metadata?: Readonly<Record<string, unknown>> | undefined;
  /** The tool is listed and callable only when this holds for the call's context. */
  availableWhen?: Availability | undefined;
  /** True, or a predicate over the validated params: the host must confirm such calls before executing. */
  requiresApproval?: boolean | ((params: Static<P>) => boolean) | undefined;
  /**
   * Whether strict provider formats (OpenAI strict mode) render this tool strictly. Default `true`: the params schema
   * must then be expressible in strict mode, or registration throws a `ToolDefinitionError` naming the path and the
   * reason. `false` opts out: strict formats send this tool with `strict: false` and its schema as written.
   */
  strict?: boolean | undefined;
  /**
   * Whether calls only read: a boolean, or a predicate over the
   * params for tools whose read-only-ness depends on the input. Default: effects declared and all READS_WORKSPACE.
   */
  readOnly?: boolean | ((params: Static<P>) => boolean) | undefined;
  /** Whether calls may run in parallel with other concurrency-safe calls (default: read-only). */
  concurrencySafe?: boolean | undefined;
  /**
   * The most calls of this tool that run at once across the registry (all conversations, an MCP server's clients);
   * further calls wait in arrival order, the wait counted in the call's timeout (`TimeoutMiddleware`), and an abort
   * of a waiting call answers it at once as cancelled before it started. At most 1,000 calls wait: a call beyond that
   * fails at once, telling the model the tool is busy. A call holds its slot until it has its result: one abandoned by
   * a timeout or a cancellation frees it then, even if its body ignores the signal and still runs. Default: no limit.
   * @throws CoreError `INVALID_OPTION` at registration when it is not a positive integer.
   */
  maxConcurrency?: number | undefined;
  /** Permission hooks for the `PermissionEngine` (for example `pathRule('path')`, or `commandRule('command')` from `agenttoolkit/builtins`). */
  permissions?: ToolPermissionHooks<Static<P>> | undefined;
  /** Per-tool onion middleware around this tool's own execution, first = outermost. */
  middlewares?: readonly ToolChunkMiddleware[] | undefined;
  /**
   * The output schema (TypeBox or JSON Schema): each successful result's JSON form is validated against it; a
   * mismatch fails the call with a generic message for the model and is logged as the tool's bug (`CoreError`
   * `INVALID_TOOL_OUTPUT`). An object schema is listed as MCP `outputSchema`, and results then carry
   * `structuredContent` (MCP specification 2025-06-18, "Structured Content"). Streamed output and external tools'
   * outcomes are not checked.
   */
  returns?: Schema | undefined;
  /**
   * Example inputs, sent as Anthropic `input_examples`. Each must match the params schema: a bad example is a
   * `ToolDefinitionError` at registration naming the example (`examples[1]`) and why.
   */
  examples?: ReadonlyArray<StaticInput<P> & Readonly<Record<string, unknown>>> | undefined;
  /** A human-readable display name for hosts (MCP `title`); the model calls the tool by `name`. */
  title?: string | undefined;
  /** Icons for hosts (MCP `icons`). */
  icons?: readonly ToolIcon[] | undefined;
  /** Provider metadata for MCP clients, sent as the tool's `_meta` (frozen). Never shown to the model. */
  meta?: Readonly<Record<string, unknown>> | undefined;
  /**
   * This tool's limit on the result text the model receives: its fields override the registry's `outputBudget`;
   * `false` turns budgets off for this tool. Checked at registration (see docs/output-budgets.md).
   */
  outputBudget?: OutputBudget | false | undefined;
}

/** An icon for a tool, as MCP lists it: `src` is an `https:` or `data:` URL. */
export interface ToolIcon {
  readonly src: string;
  readonly mimeType?: string | undefined;
  /** Sizes such as `"48x48"` or `"any"`. */
  readonly sizes?: readonly string[] | undefined;
  readonly theme?: 'light' | 'dark' | undefined;
}
