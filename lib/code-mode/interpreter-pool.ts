import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ResolvedLimits } from './limits';
import { WORKER_SOURCE } from './worker-source';

/** Pages (64 KiB) of WebAssembly memory the release build of quickjs-emscripten 0.32 starts with (16 MiB). */
export const INITIAL_PAGES = 256;

/**
 * A worker thread that makes one QuickJS interpreter (a module instance on its own memory, its runtime, a fresh
 * context with the prelude evaluated) per program, on the port of {@link WORKER_SOURCE}. An interpreter serves one
 * run and is never used again; the thread serves the next run only when {@link InterpreterPool.recycle} takes it
 * back after a program that ended on its own, and is terminated otherwise.
 */
export interface Interpreter {
  readonly worker: Worker;
  /** The host's end of the run's channel: the run message and the answers go here, the calls and the end come back. */
  readonly port: MessagePort;
  /** `control[0]` is incremented and notified after every message posted on `port` (the worker blocks on it). */
  readonly control: Int32Array;
  /** True once the interpreter for the next run is made, false when it could not be or the thread exited first. */
  readonly ready: Promise<boolean>;
  /** After a run the thread went on from: `ready` is the next interpreter's from now on. */
  renew(): void;
}

/** A compiled `WebAssembly.Module` (the library's TypeScript settings do not declare the WebAssembly types). */
export type WasmModule = object;

/** The global `WebAssembly`, as far as this file uses it. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;

/** The compiled release-sync QuickJS WebAssembly module, one per resolved quickjs-emscripten path and process. */
const compiled = new Map<string, Promise<WasmModule>>();

/**
 * The QuickJS WebAssembly module for the quickjs-emscripten entry at `quickjs`, compiled once per process (a
 * `WebAssembly.Module` is code only, no memory: every worker instantiates it on its own `WebAssembly.Memory`).
 * A failed compile is forgotten, so the next run tries again.
 */
export function quickJsModule(quickjs: string): Promise<WasmModule> {
  let module = compiled.get(quickjs);
  if (module === undefined) {
    module = readFile(createRequire(quickjs).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then((bytes) => wasm.compile(bytes));
    module.catch(() => compiled.delete(quickjs));
    compiled.set(quickjs, module);
  }
  return module;
}

/**
 * The worker thread's own stack, in MiB (Node's default is 4). QuickJS's 512 KiB stack limit counts its frames in
 * WebAssembly memory, but each level of recursion also takes frames of the thread's stack, larger before the engine
 * optimises the module: with too small a thread stack, deep recursion overflowed the thread (the worker died) before
 * QuickJS saw its own limit and threw `InternalError: stack overflow` to the program.
 */
const WORKER_STACK_MB = 16;

/**
 * Starts a worker thread that instantiates `module` on a fresh `WebAssembly.Memory` capped at `limits.memoryBytes`
 * and makes the runtime and context for one program, then waits for its `run` message on the returned `port`. With
 * `rehearse` (an interpreter started ahead of a run) it first runs the worker's rehearsal, so that the run finds the
 * thread's code compiled; a run waiting for its interpreter gains nothing from it.
 */
export function startInterpreter(quickjs: string, module: WasmModule, limits: ResolvedLimits, rehearse: boolean): Interpreter {
  const { port1: port, port2 } = new MessageChannel();
  const control = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    workerData: { quickjs, module, initialPages: INITIAL_PAGES, memoryBytes: limits.memoryBytes, stackBytes: limits.stackBytes, port: port2, control, rehearse },
    transferList: [port2],
  });
  let alive = true;
  let settle: (ready: boolean) => void = () => undefined;
  const next = () =>
    new Promise<boolean>((resolve) => {
      settle = resolve;
      if (!alive) resolve(false);
    });
  let ready = next();
  // One listener for the thread's life (a run adds its own for its messages): the worker says ready on the port, in
  // order after the previous run's end. The port does not hold the process; a run holds the worker instead.
  port.on('message', (message: { type?: string; ok?: boolean } | string) => {
    if (typeof message === 'object' && message.type === 'ready') settle(message.ok === true);
  });
  port.unref();
  const gone = () => {
    alive = false;
    settle(false);
  };
  worker.once('error', gone);
  worker.once('exit', gone);
  return {
    worker,
    port,
    control,
    get ready() {
      return ready;
    },
    renew() {
      ready = next();
    },
  };
}

/** How long a run waits for a waiting thread to make its interpreter before it takes a new thread, in milliseconds. */
const READY_LIMIT_MS = 30_000;

/** Whether `interpreter` made its interpreter within {@link READY_LIMIT_MS} (false when it failed or its thread died). */
function made(interpreter: Interpreter): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, READY_LIMIT_MS, false)));
  return Promise.race([interpreter.ready, late]).finally(() => clearTimeout(timer));
}

/** Terminates an interpreter no run took and closes its channel. */
function discard(interpreter: Interpreter): Promise<number> {
  interpreter.port.close();
  return interpreter.worker.terminate();
}

/**
 * Interpreters started ahead of runs, for one quickjs-emscripten path, memory limit and stack size (what a started
 * interpreter depends on), shared by every `CodeMode` of the process with those. Each interpreter is handed to one
 * run and never comes back; its thread comes back (see {@link recycle}) after a program that ended on its own, and
 * makes a fresh interpreter for the next run, so its compiled JavaScript is kept and no thread is started per run.
 * The pool is topped up after the run (in the background: the run's result does not wait for it). Idle workers are
 * unref'd (they never keep the process alive), one that dies while idle is dropped, and one that waits longer than
 * the idle time is terminated (the next run then starts one of its own and the pool fills again after it).
 */
export class InterpreterPool {
  private readonly idle: Interpreter[] = [];
  private readonly expiry = new Map<Interpreter, ReturnType<typeof setTimeout>>();
  /** Interpreters whose thread's death already drops them from `idle`. */
  private readonly watched = new WeakSet<Interpreter>();
  private size = 0;
  private idleMs = 0;

  constructor(
    private readonly quickjs: string,
    private readonly limits: ResolvedLimits,
  ) {}

  /** How many interpreters wait in the pool (started or starting). */
  get waiting(): number {
    return this.idle.length;
  }

  /**
   * An interpreter for one run: a waiting one whose interpreter is made when there is one (a waiting thread that could
   * not make it, or died, is terminated and the next tried), else a new one. The pool is topped up by
   * {@link refill} once the run is over, so a replacement's start (a thread, a module instance: tens of milliseconds
   * of CPU) never competes with the run that took the interpreter.
   */
  async take(size: number): Promise<Interpreter> {
    const module = await quickJsModule(this.quickjs);
    // The thread used last first: its compiled code is the warmest, and the least used ones reach their idle time.
    for (let taken = size > 0 ? this.idle.pop() : undefined; taken !== undefined; taken = this.idle.pop()) {
      clearTimeout(this.expiry.get(taken));
      this.expiry.delete(taken);
      taken.worker.ref();
      // A thread back from a run may still be making its next interpreter, and may fail to or die meanwhile: a run
      // handed a thread that dies before it listens for the exit would wait for it until the start limit.
      if (await made(taken)) return taken;
      void discard(taken);
    }
    const interpreter = startInterpreter(this.quickjs, module, this.limits, false);
    interpreter.worker.ref();
    return interpreter;
  }

  /**
   * Tops the pool up to `size` (the largest size any caller asked for; 0 neither takes from nor fills the pool), each
   * new interpreter terminated once it has waited `idleMs` after it was ready (the largest idle time any caller asked
   * for).
   */
  async refill(size: number, idleMs: number): Promise<void> {
    this.fill(await quickJsModule(this.quickjs), size, idleMs);
  }

  /**
   * Tops the pool up like {@link refill} and resolves when every waiting interpreter is ready (or has failed); they
   * keep the process alive only until then.
   */
  async warm(size: number, idleMs: number): Promise<void> {
    this.fill(await quickJsModule(this.quickjs), size, idleMs);
    // Held while they start, so a host awaiting this with nothing else to do does not exit under it.
    const starting = [...this.idle];
    for (const interpreter of starting) interpreter.worker.ref();
    await Promise.all(starting.map((interpreter) => interpreter.ready));
    for (const interpreter of starting) if (this.idle.includes(interpreter)) interpreter.worker.unref();
  }

  /** Terminates the waiting interpreters and stops refilling until a caller asks for a size again. */
  async drain(): Promise<void> {
    this.size = 0;
    const waiting = this.idle.splice(0);
    for (const timer of this.expiry.values()) clearTimeout(timer);
    this.expiry.clear();
    await Promise.all(waiting.map(discard));
  }

  /**
   * Takes back the thread of a run whose program ended on its own (not stopped from outside or by a limit), when the
   * pool has room: the worker is making a fresh interpreter for the next run. False when there is no room (the caller
   * terminates the thread then).
   */
  recycle(interpreter: Interpreter): boolean {
    if (this.size === 0 || this.idle.length >= this.size) return false;
    interpreter.renew();
    this.admit(interpreter);
    return true;
  }

  private fill(module: WasmModule, size: number, idleMs: number): void {
    this.size = Math.max(this.size, size);
    this.idleMs = Math.max(this.idleMs, idleMs);
    if (size === 0) return;
    while (this.idle.length < this.size) this.admit(startInterpreter(this.quickjs, module, this.limits, true));
  }

  /**
   * Puts an interpreter in the pool: unref'd, dropped when its thread dies or its interpreter could not be made,
   * terminated after the idle time.
   */
  private admit(interpreter: Interpreter): void {
    interpreter.worker.unref();
    if (!this.watched.has(interpreter)) {
      this.watched.add(interpreter);
      const drop = () => this.forget(interpreter);
      interpreter.worker.on('error', drop);
      interpreter.worker.on('exit', drop);
    }
    const idleMs = this.idleMs;
    const ready = interpreter.ready;
    // The idle time counts from ready: a slow start (a loaded machine) does not eat into it.
    void ready.then((made) => {
      if (!this.idle.includes(interpreter) || interpreter.ready !== ready) return;
      // A thread that could not make its next interpreter (after a run it went on from, say) would fail the run that
      // takes it: it leaves the pool, and the next run or refill starts a new one.
      if (!made) {
        this.forget(interpreter);
        void discard(interpreter);
        return;
      }
      const timer = setTimeout(() => {
        this.forget(interpreter);
        void discard(interpreter);
      }, idleMs);
      timer.unref();
      this.expiry.set(interpreter, timer);
    });
    this.idle.push(interpreter);
  }

  /** Takes an interpreter out of the pool and stops its idle timer. */
  private forget(interpreter: Interpreter): void {
    const index = this.idle.indexOf(interpreter);
    if (index >= 0) this.idle.splice(index, 1);
    clearTimeout(this.expiry.get(interpreter));
    this.expiry.delete(interpreter);
  }
}

const pools = new Map<string, InterpreterPool>();

/** The process's {@link InterpreterPool} for `quickjs` and the memory limit and stack size of `limits`. */
export function poolFor(quickjs: string, limits: ResolvedLimits): InterpreterPool {
  const key = `${limits.memoryBytes}:${limits.stackBytes}:${quickjs}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new InterpreterPool(quickjs, limits);
    pools.set(key, pool);
  }
  return pool;
}
