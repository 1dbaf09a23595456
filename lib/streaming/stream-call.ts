import { CoreError } from '../errors';
import type { ActionResult } from '../result';
import { linkedController } from '../pipeline/await-call';
import { ChunkChannel } from './chunk-channel';
import { valueToChunk } from './to-chunks';
import type { ToolChunk } from './tool-chunk';
import type { ToolStream } from './tool-stream';

/**
 * Runs one call for `tools.stream`: `run` executes it with a signal of its own (linked to `parent`) and a chunk
 * sink feeding the returned stream. When the call produced no chunk (it failed or was answered before the tool ran),
 * the stream yields one chunk built from the final result. A consumer that stops reading aborts the call.
 */
export function streamCall<R extends ActionResult<unknown>>(
  parent: AbortSignal | undefined,
  run: (signal: AbortSignal, onChunk: (chunk: ToolChunk) => void) => Promise<R>,
): ToolStream<R> {
  const { controller, unlink } = linkedController(parent);
  const channel = new ChunkChannel(() => controller.abort(new CoreError('STREAM_CLOSED', 'The stream consumer stopped reading.')));
  let emitted = false;
  const result = run(controller.signal, (chunk) => {
    emitted = true;
    channel.push(chunk);
  }).then((final) => {
    unlink();
    if (!emitted) channel.push(valueToChunk(final));
    channel.close();
    return final;
  });
  return { result, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
}
