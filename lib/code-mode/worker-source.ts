/**
 * The program of the worker thread that runs one code-mode program (see `runProgram`): plain CommonJS JavaScript,
 * started with `new Worker(WORKER_SOURCE, { eval: true, workerData })`, so the same text runs from the compiled
 * package, a bundle and the specs. It loads quickjs-emscripten from the path in `workerData.quickjs` and instantiates
 * `workerData.module` (the QuickJS `WebAssembly.Module`, compiled once by the host) on a fresh `WebAssembly.Memory`
 * whose `maximum` is the memory limit: the interpreter's own allocation count misses large allocations (a loop of
 * `'x'.repeat(1e5)` grows far past it), a memory that cannot grow does not. It makes the runtime and context ahead of
 * the program (so a pooled worker is ready before a run takes it), says `{ type: 'ready' }` on `parentPort`, and runs
 * the first `{ type: 'run', code, tools, limits, port, answers }` it receives:
 *
 * - worker to host, on `port`: `{ type: 'started' }` before the program runs; `{ type: 'call', id, name, args }` for
 *   each `tools.<name>(args)` (args as JSON text); `{ type: 'done', ok, text, error, line, reason }` once at the end;
 * - host to worker, on `port`: `{ id, ok, value, error }` answering a call (value as JSON text), each followed by an
 *   increment and notify of `answers` (an `Int32Array` on a `SharedArrayBuffer`). While the program waits for calls
 *   the worker blocks in `Atomics.wait` on it (up to the deadline) and takes the answers with `receiveMessageOnPort`,
 *   so an answer costs no turn of the worker's event loop; all answers that arrived are settled before the program's
 *   jobs run, which keeps `Promise.all` over nested calls parallel.
 *
 * Only strings cross between the program and the host: no host object is ever handed to the interpreter.
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = require(workerData.quickjs);

async function prepare() {
  const pages = Math.ceil(workerData.memoryBytes / 65536);
  const memory = new WebAssembly.Memory({ initial: workerData.initialPages, maximum: Math.max(workerData.initialPages, pages) });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory, wasmModule: workerData.module }));
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(workerData.memoryBytes);
  runtime.setMaxStackSize(workerData.stackBytes);
  return { runtime, vm: runtime.newContext() };
}

const prepared = prepare();
prepared.then(() => parentPort.postMessage({ type: 'ready' }), () => {});
parentPort.once('message', (message) => {
  const port = message.port;
  let finished = false;
  let output = '';
  let cut = false;
  const finish = (result) => {
    if (finished) return;
    finished = true;
    port.postMessage({ type: 'done', text: output, cut, ...result });
  };
  prepared
    .then((interpreter) => run(interpreter, message, port, (text) => {
      if (cut) return;
      const room = message.limits.maxOutputChars - output.length;
      if (text.length > room) {
        output += text.slice(0, Math.max(0, room));
        cut = true;
      } else output += text;
    }, () => output, finish, () => finished))
    .catch((error) => finish({ ok: false, error: 'The interpreter failed: ' + String((error && error.message) || error) }));
});

function failure(error) {
  if (error && typeof error === 'object') {
    const text = String(error.name || 'Error') + ': ' + String(error.message);
    if (/out of memory/.test(text)) return { ok: false, reason: 'memory' };
    return { ok: false, error: text, line: lineOf(error.stack) };
  }
  return { ok: false, error: 'Uncaught ' + String(JSON.stringify(error)) };
}

function lineOf(stack) {
  const match = /program\.js:(\d+)/.exec(String(stack || ''));
  return match ? Math.max(1, Number(match[1]) - 1) : undefined;
}

function run({ runtime, vm }, { code, tools, limits, answers }, port, append, printed, finish, isFinished) {
  let stop;
  let deadline = Infinity;
  const over = () => {
    if (stop === undefined && Date.now() > deadline) stop = 'time';
    return stop !== undefined;
  };
  runtime.setInterruptHandler(over);

  const pending = new Map();
  let calls = 0;
  const callFn = vm.newFunction('call', (nameHandle, argsHandle) => {
    const name = vm.typeof(nameHandle) === 'string' ? vm.getString(nameHandle) : '';
    const args = vm.typeof(argsHandle) === 'string' ? vm.getString(argsHandle) : '{}';
    if (over()) return { error: vm.newError({ name: 'InternalError', message: 'interrupted' }) };
    if (calls >= limits.maxToolCalls) {
      stop = 'calls';
      return { error: vm.newError({ name: 'InternalError', message: 'interrupted' }) };
    }
    calls += 1;
    const id = calls;
    const deferred = vm.newPromise();
    pending.set(id, deferred);
    port.postMessage({ type: 'call', id, name, args });
    return deferred.handle;
  });
  const logFn = vm.newFunction('log', (textHandle) => {
    append(vm.typeof(textHandle) === 'string' ? vm.getString(textHandle) + '\n' : '\n');
  });
  vm.setProp(vm.global, '__call', callFn);
  vm.setProp(vm.global, '__log', logFn);
  callFn.dispose();
  logFn.dispose();

  const prelude = vm.evalCode(
    '(() => {' +
      'const call = globalThis.__call, log = globalThis.__log, parse = JSON.parse, stringify = JSON.stringify;' +
      'delete globalThis.__call; delete globalThis.__log;' +
      'const show = (value) => { if (typeof value === "string") return value; try { const text = stringify(value, null, 2); return text === undefined ? String(value) : text; } catch (e) { return String(value); } };' +
      'const tools = Object.create(null);' +
      'for (const [key, name] of ' + JSON.stringify(tools) + ') Object.defineProperty(tools, key, { value: (args) => call(name, stringify(args === undefined ? {} : args)).then((text) => parse(text)), enumerable: true });' +
      'Object.freeze(tools);' +
      'const format = (items) => items.map(show).join(" ");' +
      'const console = Object.freeze({ log: (...items) => log(format(items)), info: (...items) => log(format(items)), warn: (...items) => log(format(items)), error: (...items) => log(format(items)) });' +
      'Object.defineProperty(globalThis, "tools", { value: tools });' +
      'Object.defineProperty(globalThis, "console", { value: console });' +
      'return (value) => (value === undefined ? "" : show(value));' +
    '})()',
    'prelude.js',
  );
  const show = vm.unwrapResult(prelude);

  const settle = (promise) => {
    const state = vm.getPromiseState(promise);
    if (state.type === 'pending') return false;
    if (state.type === 'fulfilled') {
      const shown = vm.callFunction(show, vm.undefined, state.value);
      state.value.dispose();
      if (shown.error) shown.error.dispose();
      else {
        const text = vm.getString(shown.value);
        shown.value.dispose();
        const output = printed();
        if (text.length > 0) append(output.length > 0 && !output.endsWith('\n') ? '\n' + text : text);
      }
      finish({ ok: true });
      return true;
    }
    const error = vm.dump(state.error);
    state.error.dispose();
    finish(stop !== undefined ? { ok: false, reason: stop } : failure(error));
    return true;
  };

  const pump = (main) => {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      const error = vm.dump(jobs.error);
      jobs.error.dispose();
      return finish(stop !== undefined ? { ok: false, reason: stop } : failure(error));
    }
    if (stop !== undefined) return finish({ ok: false, reason: stop });
    settle(main);
  };

  const answer = (message) => {
    const deferred = pending.get(message.id);
    if (deferred === undefined) return;
    pending.delete(message.id);
    if (message.ok) {
      const text = vm.newString(message.value);
      deferred.resolve(text);
      text.dispose();
    } else {
      const error = vm.newError({ name: 'ToolCallError', message: message.error });
      deferred.reject(error);
      error.dispose();
    }
    deferred.dispose();
  };

  port.postMessage({ type: 'started' });
  deadline = Date.now() + limits.timeoutMs;
  const evaluated = vm.evalCode('(async () => {\n' + code + '\n})()', 'program.js');
  if (evaluated.error) {
    const error = vm.dump(evaluated.error);
    evaluated.error.dispose();
    return finish(stop !== undefined ? { ok: false, reason: stop } : failure(error));
  }
  const main = evaluated.value;
  pump(main);
  let consumed = 0;
  while (!isFinished()) {
    const left = deadline - Date.now();
    if (left <= 0 || (Atomics.load(answers, 0) === consumed && Atomics.wait(answers, 0, consumed, left) === 'timed-out')) {
      stop = 'time';
      return finish({ ok: false, reason: 'time' });
    }
    for (let message = receiveMessageOnPort(port); message !== undefined; message = receiveMessageOnPort(port)) {
      consumed += 1;
      answer(message.message);
    }
    pump(main);
  }
}
`;
