/**
 * Collects stdout and stderr chunks up to a shared byte budget and drops the rest while reading, so memory stays
 * bounded whatever the command prints (gigabytes, or one endless line). Sets `truncated` when anything was dropped.
 */
export class OutputCapture {
  private readonly chunks: { stdout: Buffer[]; stderr: Buffer[] } = { stdout: [], stderr: [] };
  private remaining: number;
  /** True once a byte was dropped. */
  truncated = false;

  /** @param maxBytes - budget for stdout and stderr together, in bytes. */
  constructor(maxBytes: number) {
    this.remaining = maxBytes;
  }

  /** Keeps what fits of `chunk` in the budget and drops the rest. */
  push(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (chunk.length <= this.remaining) {
      this.chunks[stream].push(chunk);
      this.remaining -= chunk.length;
      return;
    }
    this.truncated = true;
    if (this.remaining > 0) {
      // Copy, so the kept slice does not pin the whole (possibly large) chunk.
      this.chunks[stream].push(Buffer.from(chunk.subarray(0, this.remaining)));
      this.remaining = 0;
    }
  }

  /** Captured text of one stream, decoded as UTF-8. */
  text(stream: 'stdout' | 'stderr'): string {
    return Buffer.concat(this.chunks[stream]).toString('utf8');
  }
}
