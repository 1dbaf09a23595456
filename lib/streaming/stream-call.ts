import { CoreError } from '../errors';
import type { ActionResult } from '../result';
import { linkedController } from '../pipeline/await-call';
import { ChunkChannel } from './chunk-channel';
import { asLastChunk, valueToChunk } from './to-chunks';
import { ToolChunk, ToolResultState } from './tool-chunk';
import type { ToolStream } from './tool-stream';

/**
 * Runs one call for `tools.stream`: `run` executes it with a signal of its own (linked to `parent`) and a chunk
 * sink feeding the returned stream. When the call produced no chunk (it failed or was answered before the tool ran),
 * the stream yields one chunk built from the final result. The stream's last chunk has `isLast: true`: the one chunk
 * built from the result, the tool's own last chunk when it set `isLast`, or else an empty chunk in the final state
 * (`SUCCESS` or `ERROR`, from the result) added once the call ended, since a chunk already handed to the consumer
 * cannot be marked afterwards and holding one back would delay it. A consumer that stops reading aborts the call.
 */
export function streamCall<R extends ActionResult<unknown>>(
  parent: AbortSignal | undefined,
  run: (signal: AbortSignal, onChunk: (chunk: ToolChunk) => void) => Promise<R>,
): ToolStream<R> {
  const { controller, unlink } = linkedController(parent);
  const channel = new ChunkChannel(() => controller.abort(new CoreError('STREAM_CLOSED', 'The stream consumer stopped reading.')));
  let last: ToolChunk | undefined;
  const result = run(controller.signal, (chunk) => {
    last = chunk;
    channel.push(chunk);
  }).then((final) => {
    unlink();
    if (last === undefined) channel.push(asLastChunk(valueToChunk(final)));
    else if (!last.isLast) channel.push(new ToolChunk({ state: final.ok ? ToolResultState.SUCCESS : ToolResultState.ERROR, isLast: true }));
    channel.close();
    return final;
  });
  return { result, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
}

