import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ResolvedLimits } from './limits';
import { WORKER_SOURCE } from './worker-source';

/** Pages (64 KiB) of WebAssembly memory the release build of quickjs-emscripten 0.32 starts with (16 MiB). */
export const INITIAL_PAGES = 256;

/**
 * A worker thread holding a QuickJS module instantiated for one program, its runtime and fresh context made and the
 * prelude evaluated (see {@link WORKER_SOURCE}); it runs the first `run` message it gets and is then terminated,
 * never reused.
 */
export interface Interpreter {
  readonly worker: Worker;
  /** The host's end of the run's channel: the run message and the answers go here, the calls and the end come back. */
  readonly port: MessagePort;
  /** `control[0]` is incremented and notified after every message posted on `port` (the worker blocks on it). */
  readonly control: Int32Array;
  /** True once the module and its context are made, false when the thread failed or exited first. */
  readonly ready: Promise<boolean>;
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
  const ready = new Promise<boolean>((resolve) => {
    worker.once('message', (message: { type?: string }) => resolve(message.type === 'ready'));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
  return { worker, port, control, ready };
}

/** Terminates an interpreter no run took and closes its channel. */
function discard(interpreter: Interpreter): Promise<number> {
  interpreter.port.close();
  return interpreter.worker.terminate();
}

/**
 * Interpreters started ahead of runs, for one quickjs-emscripten path, memory limit and stack size (what a started
 * interpreter depends on), shared by every `CodeMode` of the process with those. Each is handed to one run and never
 * comes back; the pool is topped up after the run (in the background: the run's result does not wait for it). Idle
 * workers are unref'd (they never keep the process alive), one that dies while idle is dropped, and one that waits
 * longer than the idle time is terminated (the next run then starts one of its own and the pool fills again after it).
 */
export class InterpreterPool {
  private readonly idle: Interpreter[] = [];
  private readonly expiry = new Map<Interpreter, ReturnType<typeof setTimeout>>();
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
   * An interpreter for one run: a waiting one when there is one, else a new one. The pool is topped up by
   * {@link refill} once the run is over, so a replacement's start (a thread, a module instance: tens of milliseconds
   * of CPU) never competes with the run that took the interpreter.
   */
  async take(size: number): Promise<Interpreter> {
    const module = await quickJsModule(this.quickjs);
    const taken = size > 0 ? this.idle.shift() : undefined;
    if (taken !== undefined) {
      clearTimeout(this.expiry.get(taken));
      this.expiry.delete(taken);
    }
    const interpreter = taken ?? startInterpreter(this.quickjs, module, this.limits, false);
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

  private fill(module: WasmModule, size: number, idleMs: number): void {
    this.size = Math.max(this.size, size);
    this.idleMs = Math.max(this.idleMs, idleMs);
    if (size === 0) return;
    while (this.idle.length < this.size) {
      const interpreter = startInterpreter(this.quickjs, module, this.limits, true);
      interpreter.worker.unref();
      const drop = () => {
        const index = this.idle.indexOf(interpreter);
        if (index >= 0) this.idle.splice(index, 1);
        clearTimeout(this.expiry.get(interpreter));
        this.expiry.delete(interpreter);
      };
      interpreter.worker.on('error', drop);
      interpreter.worker.on('exit', drop);
      const idleMs = this.idleMs;
      // The idle time counts from ready: a slow start (a loaded machine) does not eat into it.
      void interpreter.ready.then((ready) => {
        if (!ready || !this.idle.includes(interpreter)) return;
        const timer = setTimeout(() => {
          drop();
          void discard(interpreter);
        }, idleMs);
        timer.unref();
        this.expiry.set(interpreter, timer);
      });
      this.idle.push(interpreter);
    }
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
