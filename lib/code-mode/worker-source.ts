/**
 * The program of the worker thread that runs code-mode programs (see `runProgram`), one interpreter per program:
 * plain CommonJS JavaScript, started with `new Worker(WORKER_SOURCE, { eval: true, workerData, transferList:
 * [workerData.port] })`, so the same text runs from the compiled package, a bundle and the specs. It loads
 * quickjs-emscripten from the path in `workerData.quickjs` and, for each program, instantiates `workerData.module`
 * (the QuickJS `WebAssembly.Module`, compiled once by the host) on a fresh `WebAssembly.Memory` whose `maximum` is the
 * memory limit: the interpreter's own allocation count misses large allocations (a loop of `'x'.repeat(1e5)` grows
 * far past it), a memory that cannot grow does not.
 *
 * Before a run takes it, the worker does everything that does not depend on the program: the module instance, the
 * runtime (limits and interrupt handler set), on the thread's first interpreter with `workerData.rehearse` a rehearsal
 * of the run loop on a throwaway context (our own fixed program with made-up answers, so the thread's JavaScript is
 * compiled before a run needs it; no program's code ever runs there), then the program's own fresh context with the
 * prelude evaluated. It says `{ type: 'ready', ok }` on `workerData.port` and blocks in `Atomics.wait` on
 * `workerData.control` (an `Int32Array` on a `SharedArrayBuffer`) until the host posts the run there. Every message
 * the host posts on the port is followed by an increment and notify of `control[0]`:
 *
 * - host to worker: `{ type: 'run', code, tools, limits }`; then answers, each message a string of one or more
 *   comma-separated `[id,1,<value as JSON>]` or `[id,0,<error text as a JSON string>]`;
 * - worker to host: `{ type: 'ready', ok }` once the interpreter for the next run is made; `{ type: 'started' }`
 *   before the program runs; a string with the calls the program made since the last one, a line `id index args`
 *   each (`index` into the run's `tools`, args as JSON text); `{ type: 'done', ok, text, cut, error, line, reason,
 *   again }` once at the end, `again` false when the thread cannot make another interpreter (it then ends).
 *
 * After a run the thread makes the next interpreter from scratch (a new instance on a new memory, a new runtime and
 * context) and waits for the next run, unless the host terminates it: the host keeps a thread only after a program
 * that ended on its own (see `InterpreterPool.recycle`). Answers the host posted for a run that had already ended
 * precede the next run message on the port and are skipped.
 *
 * Inside the interpreter, the prelude keeps the program's pending calls and their resolvers: `tools.<name>(args)`
 * appends one line to an outbox string and returns a promise; after each turn of the program's jobs the worker takes
 * the outbox in one call, and hands all the answers that arrived in one call, parsed once inside the interpreter. While
 * the program waits for answers the worker blocks in `Atomics.wait` (up to the deadline) and takes them with
 * `receiveMessageOnPort`, so an answer costs no turn of the worker's event loop.
 *
 * Only strings cross between the program and the host: no host object is ever handed to the interpreter.
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = require(workerData.quickjs);
const { port, control } = workerData;

// The state of the run in progress (or of the rehearsal): read by the interrupt handler and the host functions.
let stop;
let deadline = Infinity;
let append = () => {};
const over = () => {
  if (stop === undefined && Date.now() > deadline) stop = 'time';
  return stop !== undefined;
};

const PRELUDE =
  '(() => {' +
  'const log = globalThis.__log, limit = globalThis.__limit;' +
  'delete globalThis.__log; delete globalThis.__limit;' +
  'const parse = JSON.parse, stringify = JSON.stringify, P = Promise, E = Error, define = Object.defineProperty, freeze = Object.freeze, create = Object.create;' +
  'const show = (value) => { if (typeof value === "string") return value; try { const text = stringify(value, null, 2); return text === undefined ? String(value) : text; } catch (e) { return String(value); } };' +
  'const waiting = create(null);' +
  'let outbox = "", count = 0, max = 0;' +
  'const call = (index, args) => {' +
    'const text = stringify(args === undefined ? {} : args);' +
    'if (count >= max) { limit(); throw new E("interrupted"); }' +
    'count += 1;' +
    'const id = count;' +
    // The error a failed call rejects with is made here, so its stack names the program's line of the call.
    'const site = new E("");' +
    'return new P((resolve, reject) => { waiting[id] = [resolve, reject, site]; outbox += id + " " + index + " " + (text === undefined ? "{}" : text) + "\\n"; });' +
  '};' +
  'const drain = () => { const text = outbox; outbox = ""; return text; };' +
  'const deliver = (batch) => {' +
    'const list = parse(batch);' +
    'for (let i = 0; i < list.length; i++) {' +
      'const entry = list[i], id = entry[0], settle = waiting[id];' +
      'if (settle === undefined) continue;' +
      'delete waiting[id];' +
      'if (entry[1] === 1) settle[0](entry[2]);' +
      'else { const error = settle[2]; define(error, "message", { value: entry[2], writable: true, configurable: true }); define(error, "name", { value: "ToolCallError", writable: true, configurable: true }); settle[1](error); }' +
    '}' +
  '};' +
  'const setup = (keys, limitCount) => {' +
    'max = limitCount;' +
    'const list = parse(keys), tools = create(null);' +
    'for (let i = 0; i < list.length; i++) define(tools, list[i], { value: (args) => call(i, args), enumerable: true });' +
    'freeze(tools);' +
    'const format = (items) => items.map(show).join(" ");' +
    'const console = freeze({ log: (...items) => log(format(items)), info: (...items) => log(format(items)), warn: (...items) => log(format(items)), error: (...items) => log(format(items)) });' +
    'define(globalThis, "tools", { value: tools });' +
    'define(globalThis, "console", { value: console });' +
  '};' +
  'return { setup, drain, deliver, show: (value) => (value === undefined ? "" : show(value)) };' +
  '})()';

/** Host functions and the prelude on a fresh context: the handles of setup, drain, deliver and show. */
function install(vm) {
  const logFn = vm.newFunction('log', (textHandle) => {
    append(vm.typeof(textHandle) === 'string' ? vm.getString(textHandle) + '\n' : '\n');
  });
  const limitFn = vm.newFunction('limit', () => {
    if (stop === undefined) stop = 'calls';
  });
  vm.setProp(vm.global, '__log', logFn);
  vm.setProp(vm.global, '__limit', limitFn);
  logFn.dispose();
  limitFn.dispose();
  const api = vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js'));
  const fns = { setup: vm.getProp(api, 'setup'), drain: vm.getProp(api, 'drain'), deliver: vm.getProp(api, 'deliver'), show: vm.getProp(api, 'show') };
  api.dispose();
  return fns;
}

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

/**
 * Runs code on a context made by install: the outcome ({ ok } or a failure), what it printed going to append.
 * transport: started(), send(calls) and wait() (the next batch of answers, or undefined at the deadline).
 */
function execute(runtime, vm, api, code, names, limits, transport) {
  const failed = (handle) => {
    const error = vm.dump(handle);
    handle.dispose();
    return stop !== undefined ? { ok: false, reason: stop } : failure(error);
  };
  const callApi = (fn, text) => {
    const arg = text === undefined ? undefined : vm.newString(text);
    const result = arg === undefined ? vm.callFunction(fn, vm.undefined) : vm.callFunction(fn, vm.undefined, arg);
    if (arg !== undefined) arg.dispose();
    return result;
  };
  const keys = vm.newString(JSON.stringify(names.map((pair) => pair[0])));
  const most = vm.newNumber(limits.maxToolCalls);
  const set = vm.callFunction(api.setup, vm.undefined, keys, most);
  keys.dispose();
  most.dispose();
  if (set.error) return failed(set.error);
  set.value.dispose();

  transport.started();
  deadline = Date.now() + limits.timeoutMs;
  const evaluated = vm.evalCode('(async () => {\n' + code + '\n})()', 'program.js');
  if (evaluated.error) return failed(evaluated.error);
  const main = evaluated.value;
  let made = 0;
  for (;;) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return failed(jobs.error);
    if (stop !== undefined) return { ok: false, reason: stop };
    const drained = callApi(api.drain);
    if (drained.error) return failed(drained.error);
    const outbox = vm.getString(drained.value);
    drained.value.dispose();
    if (outbox.length > 0) {
      for (let at = outbox.indexOf('\n'); at >= 0; at = outbox.indexOf('\n', at + 1)) made += 1;
      if (made > limits.maxToolCalls) {
        stop = 'calls';
        return { ok: false, reason: 'calls' };
      }
      transport.send(outbox);
    }
    const state = vm.getPromiseState(main);
    if (state.type === 'rejected') return failed(state.error);
    if (state.type === 'fulfilled') {
      const shown = vm.callFunction(api.show, vm.undefined, state.value);
      state.value.dispose();
      let text = '';
      if (shown.error) shown.error.dispose();
      else {
        text = vm.getString(shown.value);
        shown.value.dispose();
      }
      // Showing the value runs the program's code (a toJSON, a getter): a limit that stopped it there stops the run.
      if (stop !== undefined) return { ok: false, reason: stop };
      if (text.length > 0) append(text, true);
      return { ok: true };
    }
    const batch = transport.wait();
    if (batch === undefined) {
      stop = 'time';
      return { ok: false, reason: 'time' };
    }
    const delivered = callApi(api.deliver, batch);
    if (delivered.error) return failed(delivered.error);
    delivered.value.dispose();
  }
}

const REHEARSAL =
  'const a = await tools.f({ n: 1 });\n' +
  'const [b, c] = await Promise.all([tools.f({ n: 2 }), tools.f({})]);\n' +
  'try { await tools.f({ fail: true }); } catch (e) { console.log(e.message, a); }\n' +
  'return { a, b, c };';

/** Runs REHEARSAL on a throwaway context of runtime with made-up answers, then leaves the run state as it was. */
function rehearse(runtime) {
  const vm = runtime.newContext();
  try {
    const api = install(vm);
    let queued = [];
    execute(runtime, vm, api, REHEARSAL, [['f', 'f']], { maxToolCalls: 8, timeoutMs: 5000 }, {
      started() {},
      send(outbox) {
        for (const line of outbox.split('\n')) if (line.length > 0) queued.push(line.startsWith('4 ') ? '[4,0,"no"]' : '[' + line.slice(0, line.indexOf(' ')) + ',1,{"n":1}]');
      },
      wait() {
        const batch = '[' + queued.join(',') + ']';
        queued = [];
        return batch;
      },
    });
    for (const handle of Object.values(api)) handle.dispose();
  } catch (error) {
    // The rehearsal only warms the thread up: the run itself reports any real failure.
  } finally {
    vm.dispose();
    stop = undefined;
    deadline = Infinity;
  }
}

async function prepare(rehearsing) {
  const pages = Math.ceil(workerData.memoryBytes / 65536);
  const memory = new WebAssembly.Memory({ initial: workerData.initialPages, maximum: Math.max(workerData.initialPages, pages) });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory, wasmModule: workerData.module }));
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(workerData.memoryBytes);
  runtime.setMaxStackSize(workerData.stackBytes);
  runtime.setInterruptHandler(over);
  if (rehearsing) rehearse(runtime);
  const vm = runtime.newContext();
  return { runtime, vm, api: install(vm) };
}

// Messages taken from the port so far: the host increments control[0] after each one it posts.
let consumed = 0;

/** The next message the host posts on the port, blocking until there is one (or undefined once \`until\` has passed). */
function nextMessage(until) {
  for (;;) {
    const received = receiveMessageOnPort(port);
    if (received !== undefined) {
      consumed += 1;
      return received;
    }
    const left = until - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(control, 0, consumed, left === Infinity ? undefined : left);
  }
}

/**
 * Blocks until the host's next run message is there, then runs it (or reports why the interpreter could not be
 * made). Answers the host posted for the previous run after it ended are skipped: they precede the run message on the
 * port, and a run's call ids start again at 1.
 */
function serve(interpreter, problem) {
  let message;
  do message = nextMessage(Infinity).message;
  while (typeof message !== 'object' || message === null || message.type !== 'run');
  const { limits } = message;
  let output = '';
  let cut = false;
  append = (text, last) => {
    if (cut) return;
    if (last && output.length > 0 && !output.endsWith('\n')) text = '\n' + text;
    const room = limits.maxOutputChars - output.length;
    if (text.length > room) {
      output += text.slice(0, Math.max(0, room));
      cut = true;
    } else output += text;
  };
  let result;
  let again = false;
  if (interpreter === undefined) result = { ok: false, error: 'The interpreter failed: ' + problem };
  else {
    try {
      result = execute(interpreter.runtime, interpreter.vm, interpreter.api, message.code, message.tools, limits, {
        started: () => port.postMessage({ type: 'started' }),
        send: (outbox) => port.postMessage(outbox),
        wait() {
          const first = nextMessage(deadline);
          if (first === undefined) return undefined;
          const parts = [first.message];
          for (let more = receiveMessageOnPort(port); more !== undefined; more = receiveMessageOnPort(port)) {
            consumed += 1;
            parts.push(more.message);
          }
          return '[' + parts.join(',') + ']';
        },
      });
      again = true;
    } catch (error) {
      result = { ok: false, error: 'The interpreter failed: ' + String((error && error.message) || error) };
    }
  }
  stop = undefined;
  deadline = Infinity;
  // The text of an error the program threw is the program's output too: it is held to the same length.
  if (typeof result.error === 'string' && result.error.length > limits.maxOutputChars) {
    result = { ...result, error: result.error.slice(0, limits.maxOutputChars) + '\n[error cut at ' + limits.maxOutputChars + ' characters]' };
  }
  port.postMessage({ type: 'done', text: output, cut, again, ...result });
  return again;
}

/**
 * One interpreter per run: a fresh module instance on a fresh memory, runtime and context, said ready on the port,
 * then the run. The host terminates the thread after a run it does not hand back to its pool (a run stopped from
 * outside or by a limit, a full pool); otherwise the next run finds the next interpreter made here, on the same
 * thread, whose JavaScript is compiled by then. Nothing of a run outlives it but the thread's own code: its instance,
 * memory and context become garbage.
 */
async function cycle(rehearsing) {
  let interpreter;
  let problem;
  try {
    interpreter = await prepare(rehearsing);
  } catch (error) {
    problem = String((error && error.message) || error);
  }
  port.postMessage({ type: 'ready', ok: interpreter !== undefined });
  if (serve(interpreter, problem)) setImmediate(() => void cycle(false));
}

void cycle(workerData.rehearse);
`;
