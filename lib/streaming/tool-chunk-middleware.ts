import type { Invocation, Tool } from '../tool/tool';
import type { ToolChunk } from './tool-chunk';

/** The rest of a tool's own chain: call it with the (possibly changed) input; it always yields chunks. */
export type ChunkHandler = (input: Record<string, unknown>) => AsyncIterable<ToolChunk>;

/**
 * Per-tool onion middleware (seed 004: `ToolMiddlewareBase.on_tool_call`). Attached to one tool (the `middlewares`
 * option of `@Action`, `FunctionTool` or `ToolBase`), it wraps that tool's own execution wherever it is called
 * (`tools.execute`, `tools.stream`, or `tool.stream(...)` outside any registry): the first registered is the
 * outermost; `next(input)` always yields chunks, whether the tool streams or not, so one implementation serves both.
 *
 * Use it for concerns that belong to the tool (retry, metrics, redaction of its output). Use a registry
 * `ToolMiddleware` for concerns of the call slot (timeouts, permission gates, auditing every tool): those run
 * outside, before and after this chain, and see the whole call and its final result.
 *
 * Whatever it throws fails the call like an exception from the tool.
 */
export interface ToolChunkMiddleware {
  onToolCall(tool: Tool, input: Record<string, unknown>, next: ChunkHandler, invocation: Invocation): AsyncIterable<ToolChunk>;
}

/** Composes `middlewares` around `innermost`: `middlewares[0]` is the outermost. */
export function composeChunkMiddleware(middlewares: readonly ToolChunkMiddleware[], tool: Tool, invocation: Invocation, innermost: ChunkHandler): ChunkHandler {
  let next = innermost;
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const layer = middlewares[i]!;
    const inner = next;
    next = (input) => layer.onToolCall(tool, input, inner, invocation);
  }
  return next;
}
