import { receiveMessageOnPort } from 'node:worker_threads';
import { poolFor, type Interpreter } from './interpreter-pool';
import type { ResolvedLimits } from './limits';

/** The answer to one nested call, as the program receives it: a value as JSON text (valid JSON: it is passed on unparsed), or the failure's text. */
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
  /** Runs one nested call; `signal` aborts when the program ends (for any reason, `signal` of the run aborting included) while the call is in flight. */
  readonly call: (name: string, args: string, signal: AbortSignal) => Promise<CallAnswer>;
  readonly signal?: AbortSignal | undefined;
  /** How many interpreters the process keeps started ahead of runs for these limits (0: start one per run). */
  readonly warm: number;
  /** How long an interpreter started ahead waits for a run before it is terminated, in milliseconds. */
  readonly idleMs: number;
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
  /** False when the worker cannot make another interpreter (it ends by itself). */
  readonly again: boolean;
}
/** A string is the calls the program made since the last one: a line `id index args` each (args as JSON text). */
type PortMessage = { readonly type: 'started' } | { readonly type: 'ready'; readonly ok: boolean } | string | DoneMessage;

/**
 * Runs one program in a worker thread (so a runaway program never blocks the host's event loop), on a fresh
 * interpreter (one made ahead by a thread of the process's pool, or a new thread's); settles once and never rejects:
 * as soon as the program reports its end, or, when it is stopped from outside, after its thread has stopped. The
 * worker is terminated when `signal` aborts, when the program overruns `timeoutMs` by {@link GRACE_MS} (its own
 * deadline normally stops it first), when a limit stopped it and when the pool has no room for it; nested calls still
 * in flight then see their signal abort. After a program that ended on its own the pool may keep the thread, which
 * then makes a new interpreter (instance, memory, runtime, context) for a later run: an interpreter is never used
 * for a second run.
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
  let kept = false;
  const outcome = await runOn(interpreter, run, () => (kept = run.warm > 0 && pool.recycle(interpreter)));
  // A thread back in the pool is the replacement. Otherwise one is started after the caller has the outcome (its start
  // is no part of this run's latency): a refill scheduled for a kept thread fired after the next run had taken it, so
  // the pool was full again when that run handed it back, and the warm thread was terminated for a cold one.
  if (!kept) setImmediate(() => void pool.refill(run.warm, run.idleMs).catch(() => undefined));
  return outcome;
}

/**
 * Runs `run` on `interpreter`. `keep` is asked, once a program ended on its own, whether the pool takes the thread
 * back (it makes a fresh interpreter for a later run); any other end terminates the thread.
 */
function runOn(interpreter: Interpreter, run: ProgramRun, keep: () => boolean): Promise<ProgramOutcome> {
  const { worker, port, control } = interpreter;
  return new Promise<ProgramOutcome>((resolve) => {
    const inFlight = new AbortController();
    let settled = false;
    let finished = false;
    let again = false;
    // The thread has failed or exited: whatever its last result said, it cannot serve another run.
    let gone = false;
    let timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), START_LIMIT_MS);
    const onAbort = () => end({ ok: false, text: '', cut: false, reason: 'cancelled' });
    const post = (message: unknown) => {
      port.postMessage(message);
      Atomics.add(control, 0, 1);
      Atomics.notify(control, 0);
    };
    // Answers settled in the same turn of the host's event loop go over as one message (one wake-up of the worker).
    let answers: string[] = [];
    const flush = () => {
      const batch = answers.join(',');
      answers = [];
      if (!settled) post(batch);
    };
    const reply = (id: number, answer: CallAnswer) => {
      if (settled) return;
      // The value is JSON text already (see CallAnswer): it is spliced in as it is, and parsed once in the interpreter.
      if (answers.push(answer.ok ? `[${id},1,${answer.value}]` : `[${id},0,${JSON.stringify(answer.error)}]`) === 1) queueMicrotask(flush);
    };
    const receive = (message: PortMessage) => {
      if (settled) return;
      if (typeof message === 'string') {
        for (const line of message.split('\n')) {
          if (line.length === 0) continue;
          const first = line.indexOf(' ');
          const second = line.indexOf(' ', first + 1);
          const id = Number(line.slice(0, first));
          const name = run.tools[Number(line.slice(first + 1, second))]?.[1] ?? '';
          run.call(name, line.slice(second + 1), inFlight.signal).then(
            (answer) => reply(id, answer),
            (error: unknown) => reply(id, { ok: false, error: String((error as Error | null)?.message ?? error) }),
          );
        }
      } else if (message.type === 'started') {
        clearTimeout(timer);
        timer = setTimeout(() => end({ ok: false, text: '', cut: false, reason: 'time' }), run.limits.timeoutMs + GRACE_MS);
      } else if (message.type === 'done') {
        const { type: _type, again: goesOn, ...outcome } = message;
        finished = true;
        again = goesOn;
        end(outcome.ok ? { ok: true, text: outcome.text, cut: outcome.cut } : (outcome as ProgramOutcome));
      }
    };
    // A worker that cannot go on ends by itself once it has posted its result, and its 'exit' can be emitted before
    // the port's pending messages: Node drains only the worker's own parentPort before 'exit'. What it posted is taken
    // first, so a finished program is never reported as a crashed interpreter.
    const drained = () => {
      if (settled) return;
      for (let left = receiveMessageOnPort(port); left !== undefined && !settled; left = receiveMessageOnPort(port)) receive(left.message as PortMessage);
    };
    const onError = (error: Error) => {
      gone = true;
      drained();
      end({ ok: false, text: '', cut: false, reason: 'crashed', error: error.message });
    };
    const onExit = () => {
      gone = true;
      drained();
      end({ ok: false, text: '', cut: false, reason: 'crashed', error: 'the interpreter exited' });
    };
    function end(outcome: ProgramOutcome): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      inFlight.abort();
      port.off('message', receive);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // Only a program that ended on its own, without a limit stopping it, leaves a thread worth keeping, and only while
      // the thread is alive: a result read on 'exit' (see drained) may say the thread goes on when it has died since.
      if (finished && again && !gone && (outcome.ok || outcome.reason === undefined) && keep()) return resolve(outcome);
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
    if (run.signal?.aborted === true) return onAbort();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    port.on('message', receive);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const { timeoutMs, maxToolCalls, maxOutputChars } = run.limits;
    post({ type: 'run', code: run.code, tools: run.tools, limits: { timeoutMs, maxToolCalls, maxOutputChars } });
  });
}
