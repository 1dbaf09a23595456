import { CoreError } from '../errors';
import type { ToolChunk } from './tool-chunk';

/**
 * An unbounded single-consumer queue of chunks between a running call and the code iterating `tools.stream(...)`.
 * Unbounded on purpose: a consumer that only awaits the final result never blocks the tool. When the consumer
 * stops early (`break`), `onCancel` runs (the registry aborts the call) and later chunks are dropped.
 */
export class ChunkChannel implements AsyncIterable<ToolChunk> {
  private readonly queue: ToolChunk[] = [];
  private waiting: ((step: IteratorResult<ToolChunk>) => void) | undefined;
  private closed = false;
  private iterated = false;

  constructor(private readonly onCancel: () => void) {}

  /** Queues a chunk for the consumer (dropped once the channel is closed). */
  push(chunk: ToolChunk): void {
    if (this.closed) return;
    if (this.waiting !== undefined) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: chunk, done: false });
    } else this.queue.push(chunk);
  }

  /** Ends the stream: the consumer finishes after the queued chunks. */
  close(): void {
    this.closed = true;
    if (this.waiting !== undefined) this.waiting({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<ToolChunk> {
    if (this.iterated) throw new CoreError('STREAM_CONSUMED', 'A tool stream can be iterated once: keep the chunks you need, or call tools.stream(...) again.');
    this.iterated = true;
    return {
      next: () => {
        const chunk = this.queue.shift();
        if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        if (!this.closed) this.onCancel();
        this.close();
        this.queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
