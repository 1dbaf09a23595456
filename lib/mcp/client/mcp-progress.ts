import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { ToolChunk } from '../../streaming/tool-chunk';
import { cutText } from '../../text/cut-text';
import { valueToChunk } from '../../streaming/to-chunks';

/**
 * The metadata key under which a streamed chunk carries an MCP progress notification (`notifications/progress`):
 * `chunk.metadata[MCP_PROGRESS]` is an {@link McpProgress}. Such a chunk has no content, so the call's result is
 * what it would be without progress.
 */
export const MCP_PROGRESS = 'mcpProgress';

/** One MCP progress notification of a call: `progress` units done of `total` (both in the server's unit), a message. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/** The progress a chunk carries under {@link MCP_PROGRESS}, or undefined. */
export function progressOf(chunk: ToolChunk): McpProgress | undefined {
  const value = chunk.metadata[MCP_PROGRESS] as Partial<McpProgress> | undefined;
  return typeof value === 'object' && value !== null && typeof value.progress === 'number' ? (value as McpProgress) : undefined;
}

/** The longest progress message passed on, in UTF-16 code units: a server's longer message is cut. */
const MAX_PROGRESS_MESSAGE = 1000;

/** A content-less running chunk for one progress notification (its message cut to 1,000 characters). */
export function progressChunk(progress: Progress): ToolChunk {
  const entry: { progress: number; total?: number; message?: string } = { progress: progress.progress };
  if (typeof progress.total === 'number') entry.total = progress.total;
  if (typeof progress.message === 'string') entry.message = cutText(progress.message, MAX_PROGRESS_MESSAGE);
  return new ToolChunk({ metadata: { [MCP_PROGRESS]: Object.freeze(entry) } });
}

/**
 * The body of one remote call, passing the server's progress notifications on. `body` settles like the call's
 * outcome while no progress arrived (the plain path: no stream, the output checked by the tool as usual). When a
 * notification arrives first, `body` resolves to a stream instead, which yields one content-less chunk per
 * notification (see {@link progressChunk}) and then the outcome's chunk, so `tools.stream` consumers see progress
 * live while `execute` gets the same result as without it. The stream's last value is checked with `check` (the
 * tool's output check, which passes streamed values unchecked).
 */
export class ProgressRelay {
  readonly body: Promise<unknown>;
  private readonly queue: ToolChunk[] = [];
  private resolveBody!: (value: unknown) => void;
  private rejectBody!: (error: unknown) => void;
  private streaming = false;
  private settled: { ok: true; value: unknown } | { ok: false; error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly check: (value: unknown) => unknown) {
    this.body = new Promise((resolve, reject) => {
      this.resolveBody = resolve;
      this.rejectBody = reject;
    });
  }

  /** The SDK's `onprogress` callback for the call. */
  readonly onprogress = (progress: Progress): void => {
    if (this.settled !== undefined && !this.streaming) return;
    this.queue.push(progressChunk(progress));
    if (this.streaming) return this.notify();
    this.streaming = true;
    this.resolveBody(this.stream());
  };

  /** Hands over the call's outcome. */
  settle(outcome: Promise<unknown>): void {
    outcome.then(
      (value) => this.finish({ ok: true, value }),
      (error: unknown) => this.finish({ ok: false, error }),
    );
  }

  private finish(settled: { ok: true; value: unknown } | { ok: false; error: unknown }): void {
    this.settled = settled;
    if (this.streaming) return this.notify();
    if (settled.ok) this.resolveBody(settled.value);
    else this.rejectBody(settled.error);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async *stream(): AsyncGenerator<ToolChunk, void, undefined> {
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift()!;
      if (this.settled !== undefined) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const settled = this.settled;
    if (!settled.ok) throw settled.error;
    yield valueToChunk(this.check(settled.value));
  }
}
