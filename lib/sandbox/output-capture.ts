import { StringDecoder } from 'node:string_decoder';
import { utf8CutLength } from '../text/cut-text';
import type { SandboxOutputChunk } from './sandbox';

type Stream = 'stdout' | 'stderr';

/** Bytes kept after a stream's last kept byte, so the cut can tell whether it splits a UTF-8 character. */
const LOOKAHEAD_BYTES = 4;

/**
 * Collects stdout and stderr chunks up to a shared byte budget and drops the rest while reading, so memory stays
 * bounded whatever the command prints (gigabytes, or one endless line). Sets `truncated` when anything was dropped.
 *
 * A stream that lost bytes is cut at a UTF-8 character boundary: a character the budget would split is dropped
 * whole, so the text never ends in a replacement character the command did not print.
 *
 * With a listener, every kept byte is also handed on as it arrives, decoded as UTF-8 (a chunk never ends inside a
 * character: the decoder holds the partial bytes back), so what streams is exactly what the budget keeps. A listener
 * that throws is ignored: it cannot break the capture or the run.
 */
export class OutputCapture {
  private readonly chunks: Record<Stream, Buffer[]> = { stdout: [], stderr: [] };
  /** The first bytes dropped from each stream, or undefined while nothing was dropped from it. */
  private readonly dropped: Record<Stream, Buffer | undefined> = { stdout: undefined, stderr: undefined };
  private remaining: number;
  /** True once a byte was dropped. */
  truncated = false;

  private readonly decoders: Record<Stream, StringDecoder> | undefined;

  /**
   * @param maxBytes - budget for stdout and stderr together, in bytes.
   * @param onOutput - called with each kept piece of output, in arrival order.
   */
  constructor(maxBytes: number, private readonly onOutput?: (chunk: SandboxOutputChunk) => void) {
    this.remaining = maxBytes;
    this.decoders = onOutput === undefined ? undefined : { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  }

  private forward(stream: Stream, bytes: Buffer): void {
    if (this.decoders === undefined) return;
    const text = this.decoders[stream].write(bytes);
    if (text === '') return;
    try {
      this.onOutput!({ stream, text });
    } catch {
      // The listener's failure is its own; the capture goes on.
    }
  }

  /** Keeps what fits of `chunk` in the budget and drops the rest. */
  push(stream: Stream, chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (chunk.length <= this.remaining && this.dropped[stream] === undefined) {
      this.chunks[stream].push(chunk);
      this.remaining -= chunk.length;
      this.forward(stream, chunk);
      return;
    }
    this.truncated = true;
    const kept = this.dropped[stream] === undefined ? this.remaining : 0;
    if (kept > 0) {
      // Copy, so the kept slice does not pin the whole (possibly large) chunk.
      const slice = Buffer.from(chunk.subarray(0, kept));
      this.chunks[stream].push(slice);
      this.remaining = 0;
      this.forward(stream, slice);
    }
    const seen = this.dropped[stream] ?? Buffer.alloc(0);
    if (seen.length < LOOKAHEAD_BYTES) {
      this.dropped[stream] = Buffer.concat([seen, chunk.subarray(kept, kept + LOOKAHEAD_BYTES - seen.length)]);
    }
  }

  /** Captured text of one stream, decoded as UTF-8, cut at a character boundary when bytes were dropped from it. */
  text(stream: Stream): string {
    const kept = Buffer.concat(this.chunks[stream]);
    const dropped = this.dropped[stream];
    if (dropped === undefined) return kept.toString('utf8');
    return kept.subarray(0, utf8CutLength(Buffer.concat([kept, dropped]), kept.length)).toString('utf8');
  }
}
