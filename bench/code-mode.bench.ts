/**
 * Code mode benchmark (`npm run bench -- code-mode`): what a `run_code` call costs and what it saves.
 *
 * - the empty program (`return 1`) three ways: the process's first run (WebAssembly compile, worker thread start,
 *   module instance, context: one sample), a cold run (`warmInterpreters: 0`: worker thread, module instance on its
 *   own memory, context) and a warm run (with the pool ready: `warm()` is awaited before each, so the interpreter the
 *   run takes has its runtime, context and prelude made; the run is posting the program, its evaluation and the
 *   answer; the replacement starts after the run's result), cold and warm alternately; then a program making 20
 *   nested calls, warm (the pool ready likewise);
 * - the per-call cost of a nested call: the median gap, seen by the host, between the starts of consecutive calls of
 *   a 100-call loop, against a direct `tools.execute` of the same tool: in the process's first loops, and in a
 *   steady state (after the process has run 5,000 nested calls, as a server has: V8 has tiered up the QuickJS
 *   WebAssembly, whose compiled code every worker of the process shares, and the host's pipeline), with the warm
 *   empty run measured again there;
 * - the longest stall of the host's event loop (a 1 ms interval's largest gap) while a `while(true){}` program runs
 *   to its 500 ms time limit and is stopped (the interpreter runs on its own worker thread), beside the same figure
 *   with no program running: on a loaded machine the interval is late on its own;
 * - the characters handed to the model for a 20-call task whose every result is 2,000 characters of synthetic text
 *   (a listing): 20 results as they are, against one program that keeps the one line the task asks for.
 */
import { Tools } from '../lib';
import { CodeMode } from '../lib/code-mode';
import { formatMs, formatNs, median, printTable } from './harness';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = QUICK ? 3 : 9;
const DIRECT_RUNS = QUICK ? 200 : 2_000;
/** How many 100-call loops the process has run before the steady-state rows are measured. */
const STEADY_AFTER_LOOPS = QUICK ? 10 : 50;
const LOOP = 'let s = 0;\nfor (let i = 0; i < 100; i++) s = await tools.add({ a: s, b: i });\nreturn s;';

function registry(): Tools {
  const tools = new Tools();
  tools.action({ name: 'add', description: 'Add two numbers.', params: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }, ({ a, b }) => (a as number) + (b as number));
  tools.action({ name: 'list_page', description: 'One page of a listing.', params: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] } }, ({ page }) =>
    Array.from({ length: 40 }, (_, i) => `page ${page} item ${String(i).padStart(2, '0')}: ${'x'.repeat(32)}${page === 13 && i === 7 ? ' NEEDLE' : ''}`).join('\n').slice(0, 2_000),
  );
  return tools;
}

async function timed(codeMode: CodeMode, code: string): Promise<number> {
  const start = process.hrtime.bigint();
  const result = await codeMode.run(code);
  const elapsed = Number(process.hrtime.bigint() - start);
  if (!result.ok) throw new Error(`bench program failed: ${result.error}`);
  return elapsed;
}

async function stallWhileStopping(codeMode: CodeMode | undefined): Promise<number> {
  let last = process.hrtime.bigint();
  let longest = 0;
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    longest = Math.max(longest, Number(now - last));
    last = now;
  }, 1);
  if (codeMode === undefined) await new Promise((resolve) => setTimeout(resolve, 500));
  else await codeMode.run('while (true) {}');
  clearInterval(timer);
  return longest;
}

export default async function main(): Promise<void> {
  const tools = registry();
  const limits = { maxToolCalls: 200, timeoutMs: 120_000 };
  const warm = new CodeMode(tools, { limits, warmInterpreters: 1 });
  const cold = new CodeMode(tools, { limits, warmInterpreters: 0 });
  const runaway = new CodeMode(tools, { limits: { timeoutMs: 500 } });
  const first = await timed(cold, 'return 1');
  const coldRuns: number[] = [];
  const warmRuns: number[] = [];
  const twenty: number[] = [];
  const TWENTY = 'let s = 0;\nfor (let i = 0; i < 20; i++) s = await tools.add({ a: s, b: i });\nreturn s;';
  // Alternately, so a change of the machine's load hits both alike; each warm run takes an interpreter made ready first.
  for (let i = 0; i < RUNS; i++) {
    coldRuns.push(await timed(cold, 'return 1'));
    await warm.warm();
    warmRuns.push(await timed(warm, 'return 1'));
    await warm.warm();
    twenty.push(await timed(warm, TWENTY));
  }
  // Inside one run: the host-side gap between the starts of consecutive nested calls of a sequential loop (one round
  // trip host -> interpreter -> host plus the call itself), free of the run-to-run noise of the start.
  const loopGaps = async (runs: number): Promise<number[]> => {
    const gaps: number[] = [];
    for (let i = 0; i < runs; i++) {
      let last: bigint | undefined;
      await warm.warm();
      await warm.run(LOOP, {
        onCall: (event) => {
          if (event.status !== 'running') return;
          const now = process.hrtime.bigint();
          if (last !== undefined) gaps.push(Number(now - last));
          last = now;
        },
      });
    }
    return gaps;
  };
  const gaps = await loopGaps(RUNS);
  // A process that has served programs for a while: V8 has tiered up the QuickJS WebAssembly (its compiled code is
  // shared by every worker of the process) and the host's pipeline. Each run still gets a new worker and instance.
  await loopGaps(STEADY_AFTER_LOOPS - RUNS);
  const steadyGaps = await loopGaps(RUNS);
  const steadyWarm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await warm.warm();
    steadyWarm.push(await timed(warm, 'return 1'));
  }
  const direct: number[] = [];
  for (let i = 0; i < DIRECT_RUNS; i++) {
    const start = process.hrtime.bigint();
    for (let j = 0; j < 20; j++) await tools.execute('add', { a: j, b: i });
    direct.push(Number(process.hrtime.bigint() - start));
  }
  const perNested = median(gaps);
  const perSteady = median(steadyGaps);
  const perDirect = median(direct) / 20;
  printTable('code mode: start and 20 calls', ['case', 'median', 'per call'], [
    ['first run of the process, empty program (compile + worker + module + context; one sample)', formatNs(first), '-'],
    ['cold run, empty program (warmInterpreters 0: worker + module instance + context)', formatNs(median(coldRuns)), '-'],
    ['warm run, empty program (the pool ready: warm() awaited before the run)', formatNs(median(warmRuns)), '-'],
    ['warm run, program making 20 nested calls', formatNs(median(twenty)), '-'],
    ['nested call in a sequential loop (gap between call starts, one run)', '-', formatNs(perNested)],
    ['20 direct tools.execute calls', formatNs(median(direct)), formatNs(perDirect)],
    ['nested call overhead over a direct call', '-', formatNs(perNested - perDirect)],
    [`steady state, after ${STEADY_AFTER_LOOPS * 100} nested calls in the process: warm run, empty program`, formatNs(median(steadyWarm)), '-'],
    ['steady state: nested call overhead over a direct call', '-', formatNs(perSteady - perDirect)],
  ]);

  const stalls: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    stalls.push(await stallWhileStopping(runaway));
    idle.push(await stallWhileStopping(undefined));
  }
  printTable('code mode: host event loop, longest gap of a 1 ms interval', ['case', 'runs', 'median', 'max'], [
    ['a while(true){} program run to its 500 ms limit', String(stalls.length), formatMs(median(stalls) / 1e6), formatMs(Math.max(...stalls) / 1e6)],
    ['no program, 500 ms (the machine itself)', String(idle.length), formatMs(median(idle) / 1e6), formatMs(Math.max(...idle) / 1e6)],
  ]);

  let direct20 = 0;
  await warm.warm();
  for (let page = 0; page < 20; page++) direct20 += String((await tools.execute('list_page', { page })).result).length;
  const program = await warm.run('const hits = [];\nfor (let page = 0; page < 20; page++) {\n  const text = await tools.list_page({ page });\n  hits.push(...text.split("\\n").filter((line) => line.includes("NEEDLE")));\n}\nreturn hits.join("\\n");');
  printTable('code mode: characters handed to the model, 20 calls of 2,000-character results', ['case', 'characters'], [
    ['20 results, one per model turn', String(direct20)],
    ['one run_code result', `${String(program.result).length} (${JSON.stringify(program.result)})`],
  ]);
}
