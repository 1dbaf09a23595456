import type { Invocation } from '../tool/invocation';
import type { ChunkHandler, ToolChunkMiddleware, ToolInfo } from '../tool/tool-info';

export type { ChunkHandler, ToolChunkMiddleware } from '../tool/tool-info';

/** Composes `middlewares` around `innermost`: `middlewares[0]` is the outermost. */
export function composeChunkMiddleware(middlewares: readonly ToolChunkMiddleware[], tool: ToolInfo, invocation: Invocation, innermost: ChunkHandler): ChunkHandler {
  let next = innermost;
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const layer = middlewares[i]!;
    const inner = next;
    next = (input) => layer.onToolCall(tool, input, inner, invocation);
  }
  return next;
}
