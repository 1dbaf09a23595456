import { MessageChannel } from 'node:worker_threads';
import { poolFor, type Interpreter } from './interpreter-pool';
import type { ResolvedLimits } from './limits';

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
  /** How many interpreters the process keeps started ahead of runs for these limits (0: start one per run). */
  readonly warm: number;
}

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
type PortMessage = { readonly type: 'started' } | { readonly type: 'call'; readonly id: number; readonly name: string; readonly args: string } | DoneMessage;

/**
 * Runs one program in a worker thread of its own (so a runaway program never blocks the host's event loop), with a
 * fresh interpreter (one started ahead by the process's pool, or a new one); settles once and never rejects: as soon as
 * the program reports its end, or, when it is stopped from outside, after its thread has stopped. The worker is
 * terminated when the program ends, when `signal` aborts, and when it overruns `timeoutMs` by {@link GRACE_MS} (its
 * own deadline normally stops it first); nested calls still in flight then see their signal abort. A worker is never
 * used for a second run.
 */
export async function runProgram(run: ProgramRun): Promise<ProgramOutcome> {
  if (run.signal?.aborted === true) return { ok: false, text: '', cut: false, reason: 'cancelled' };
  const pool = poolFor(run.quickjs, run.limits);
  let interpreter: Interpreter;
  try {
    interpreter = await pool.take(run.warm);
  } catch (error) {
    return { ok: false, text: '', cut: false, reason: 'crashed', error: `the interpreter could not be loaded: ${(error as Error).message}` };
  }
  const outcome = await runOn(interpreter, run);
  await pool.refill(run.warm).catch(() => undefined); // the module loaded for this run: refilling cannot fail to load it
  return outcome;
}

function runOn({ worker }: Interpreter, run: ProgramRun): Promise<ProgramOutcome> {
  return new Promise<ProgramOutcome>((resolve) => {
    const inFlight = new AbortController();
    const { port1: port, port2 } = new MessageChannel();
    const answers = new Int32Array(new SharedArrayBuffer(4));
    let settled = false;
    let finished = false;
    let timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), START_LIMIT_MS);
    const onAbort = () => end({ ok: false, text: '', cut: false, reason: 'cancelled' });
    function end(outcome: ProgramOutcome): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      inFlight.abort();
      port.close();
      const stopped = worker.terminate();
      // A program that ended on its own has nothing left to run: its result need not wait for the thread's teardown.
      // One stopped from outside settles once the thread is gone, so a runaway leaves nothing running behind it.
      if (finished) {
        worker.unref();
        resolve(outcome);
      } else stopped.then(
        () => resolve(outcome),
        () => resolve(outcome),
      );
    }
    const reply = (answer: { id: number } & CallAnswer) => {
      if (settled) return;
      port.postMessage(answer);
      Atomics.add(answers, 0, 1);
      Atomics.notify(answers, 0);
    };
    if (run.signal?.aborted === true) return onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    port.on('message', (message: PortMessage) => {
      if (settled) return;
      if (message.type === 'started') {
        clearTimeout(timer);
        timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), run.limits.timeoutMs + GRACE_MS);
      } else if (message.type === 'call') {
        const { id } = message;
        run.call(message.name, message.args, inFlight.signal).then(
          (answer) => reply({ id, ...answer }),
          (error: unknown) => reply({ id, ok: false, error: String((error as Error | null)?.message ?? error) }),
        );
      } else {
        const { type: _type, ...outcome } = message;
        finished = true;
        end(outcome.ok ? { ok: true, text: outcome.text, cut: outcome.cut } : (outcome as ProgramOutcome));
      }
    });
    worker.on('error', (error) => end({ ok: false, text: '', cut: false, reason: 'crashed', error: error.message }));
    worker.on('exit', () => end({ ok: false, text: '', cut: false, reason: 'crashed', error: 'the interpreter exited' }));
    const { timeoutMs, maxToolCalls, maxOutputChars } = run.limits;
    worker.postMessage({ type: 'run', code: run.code, tools: run.tools, limits: { timeoutMs, maxToolCalls, maxOutputChars }, port: port2, answers }, [port2]);
  });
}
