import { Worker } from 'node:worker_threads';
import type { ResolvedLimits } from './limits';
import { WORKER_SOURCE } from './worker-source';

/** The answer to one nested call, as the program receives it: a JSON text value, or the failure's text. */
export type CallAnswer = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string };

/** Why a program was stopped from outside its own code. */
export type StopReason = 'time' | 'memory' | 'calls' | 'cancelled' | 'crashed';

/** How a program ended: what it printed and returned (`text`, cut at `maxOutputChars` when `cut`), or why it failed. */
export type ProgramOutcome =
  | { readonly ok: true; readonly text: string; readonly cut: boolean }
  | { readonly ok: false; readonly text: string; readonly cut: boolean; readonly error?: string; readonly line?: number; readonly reason?: StopReason };

/** What {@link runProgram} needs. */
export interface ProgramRun {
  readonly code: string;
  /** `[key, name]`: the property of `tools` in the program and the registered tool it calls. */
  readonly tools: ReadonlyArray<readonly [string, string]>;
  readonly limits: ResolvedLimits;
  /** Resolved path of quickjs-emscripten's CommonJS entry. */
  readonly quickjs: string;
  /** Runs one nested call; `signal` aborts when the program ends (for any reason) while the call is in flight. */
  readonly call: (name: string, args: string, signal: AbortSignal) => Promise<CallAnswer>;
  readonly signal?: AbortSignal | undefined;
}

/** Pages (64 KiB) of WebAssembly memory the release build of quickjs-emscripten 0.32 starts with (16 MiB). */
export const INITIAL_PAGES = 256;
/** How long the interpreter may take to load before the program's clock starts, in milliseconds. */
const START_LIMIT_MS = 30_000;
/** Time past `timeoutMs` the worker gets to stop itself before it is terminated, in milliseconds. */
const GRACE_MS = 250;

interface DoneMessage {
  readonly type: 'done';
  readonly ok: boolean;
  readonly text: string;
  readonly cut: boolean;
  readonly error?: string;
  readonly line?: number;
  readonly reason?: StopReason;
}
type WorkerMessage = { readonly type: 'started' } | { readonly type: 'call'; readonly id: number; readonly name: string; readonly args: string } | DoneMessage;

/**
 * Runs one program in a worker thread of its own (so a runaway program never blocks the host's event loop), with a
 * fresh interpreter; settles once, after the thread has stopped, and never rejects. The worker is terminated when the program ends, when `signal`
 * aborts, and when it overruns `timeoutMs` by {@link GRACE_MS} (its own interrupt handler normally stops it first);
 * nested calls still in flight then see their signal abort.
 */
export function runProgram(run: ProgramRun): Promise<ProgramOutcome> {
  return new Promise<ProgramOutcome>((resolve) => {
    const inFlight = new AbortController();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { quickjs: run.quickjs, code: run.code, tools: run.tools, limits: run.limits, initialPages: INITIAL_PAGES },
    });
    let settled = false;
    let timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), START_LIMIT_MS);
    const onAbort = () => end({ ok: false, text: '', cut: false, reason: 'cancelled' });
    function end(outcome: ProgramOutcome): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      inFlight.abort();
      // Settles once the thread is gone, so a finished run leaves nothing running behind it.
      worker.terminate().then(
        () => resolve(outcome),
        () => resolve(outcome),
      );
    }
    if (run.signal?.aborted === true) return onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      if (message.type === 'started') {
        clearTimeout(timer);
        timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), run.limits.timeoutMs + GRACE_MS);
      } else if (message.type === 'call') {
        const { id } = message;
        run.call(message.name, message.args, inFlight.signal).then(
          (answer) => settled || worker.postMessage({ id, ...answer }),
          (error: unknown) => settled || worker.postMessage({ id, ok: false, error: String((error as Error | null)?.message ?? error) }),
        );
      } else {
        const { type: _type, ...outcome } = message;
        end(outcome.ok ? { ok: true, text: outcome.text, cut: outcome.cut } : (outcome as ProgramOutcome));
      }
    });
    worker.on('error', (error) => end({ ok: false, text: '', cut: false, reason: 'crashed', error: error.message }));
    worker.on('exit', () => end({ ok: false, text: '', cut: false, reason: 'crashed', error: 'the interpreter exited' }));
  });
}
