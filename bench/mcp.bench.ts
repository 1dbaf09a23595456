/**
 * MCP server benchmark: one `tools/call` of the bench-anchors workload (`add_numbers {a: integer, b: integer, note?:
 * string}`) from the SDK's `Client` over `InMemoryTransport`, served by `serveTools` (a TypeBox-defined registry tool)
 * against the bare SDK server's `registerTool` (zod schema) on the same workload. Five runs; the figure is the median
 * of the five run medians. Target: the served registry within 1.1 times the SDK's own server. A third row runs the
 * bare handler listening to the request's abort signal, which a handler that forwards MCP cancellation to slow work
 * pays: on Node 20 the first listener on a fresh `AbortSignal` costs several microseconds (the registry's pipeline
 * listens only when the tool is still running one microtask later, so this workload does not pay it).
 *
 * The in-memory rows cover each SDK line and protocol revision (SDK 1.x on 2025-11-25, SDK v2 on 2025-11-25 and on
 * 2026-07-28), each "x bare" figure against the bare server of the same line and revision. The HTTP rows count
 * `tools/call` per second on loopback with 50 concurrent SDK v2 clients (each calling one after another), `serveHttp`
 * with the served registry against the bare SDK endpoint (`createMcpHandler` for 2026-07-28, a session per
 * `initialize` for 2025-11-25), clients and server in one process.
 *
 * Method of the bench-anchors harness: each case gets a freshly compiled timing loop (`new Function`, so its call site
 * carries no type feedback from another case), the last value goes to a sink, GC is forced (with `--expose-gc`)
 * before each phase, never inside a timed batch, and the median over batches is an interpolated quantile. Batches
 * last 200 ms, not the harness's 10 ms, so each holds the GC its calls cause (see `CONFIG`). The five runs interleave
 * the cases, each case and run in a fresh process (one server per process, as a deployment runs it, and as the
 * bench-anchors runner runs one process per library), so a load change on a shared machine hits every case alike and
 * no case inherits another's type feedback. Two servers in one process are not compared: a bare and a served server
 * timed side by side in one process measured the served one 1.13 to 1.21 times the bare one on code that measures
 * 1.04 to 1.07 in processes of its own, while two identical bare servers side by side measured 1.02 to 1.05 (see
 * docs/benchmarks.md). A CPU-time column (`process.cpuUsage`, user + system, per call) is printed beside the
 * wall-clock figure, and the best run: on a machine shared with other work the median swings with the load, and the
 * best run is the least disturbed figure of each case.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Type } from '@sinclair/typebox';
import { z } from 'zod';
import { Client as Client2, InMemoryTransport as InMemoryTransport2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, isInitializeRequest, McpServer as McpServer2 } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Tools } from '../lib';
import { serveHttp, serveTools } from '../lib/mcp';
import { formatNs, printTable } from './harness';

const DESCRIPTION = 'Add two integers and return the sum.';

async function connected(server: McpServer): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return client;
}

async function bareSdk(): Promise<Client> {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('add_numbers', { description: DESCRIPTION, inputSchema: { a: z.number().int(), b: z.number().int(), note: z.string().optional() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return connected(server);
}

/** The same bare handler made cancellable: it listens to the request's signal while it runs, as the registry's pipeline does. */
async function bareCancellable(): Promise<Client> {
  const server = new McpServer({ name: 'bare-cancellable', version: '1.0.0' });
  const onAbort = () => undefined;
  server.registerTool('add_numbers', { description: DESCRIPTION, inputSchema: { a: z.number().int(), b: z.number().int(), note: z.string().optional() } }, ({ a, b }, extra) => {
    extra.signal.addEventListener('abort', onAbort, { once: true });
    extra.signal.removeEventListener('abort', onAbort);
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  return connected(server);
}

async function served(): Promise<Client> {
  const tools = new Tools();
  tools.action({ name: 'add_numbers', description: DESCRIPTION, params: Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }), effects: [] }, async ({ a, b }) => a + b);
  const server = new McpServer({ name: 'served', version: '1.0.0' });
  serveTools(server, tools);
  return connected(server);
}

/** An SDK v2 server of the workload: the bare `registerTool` (zod) or the served registry. */
function server2(kind: 'bare' | 'served'): McpServer2 {
  const server = new McpServer2({ name: kind, version: '1.0.0' });
  if (kind === 'bare') {
    server.registerTool('add_numbers', { description: DESCRIPTION, inputSchema: z.object({ a: z.number().int(), b: z.number().int(), note: z.string().optional() }) }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    return server;
  }
  const tools = new Tools();
  tools.action({ name: 'add_numbers', description: DESCRIPTION, params: Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }), effects: [] }, async ({ a, b }) => a + b);
  serveTools(server, tools);
  return server;
}

/** SDK v2 on 2025-11-25: the v2 client (default mode) over the v2 `InMemoryTransport`. */
async function legacy2(kind: 'bare' | 'served'): Promise<Client2> {
  const client = new Client2({ name: 'bench', version: '1.0.0' });
  const [a, b] = InMemoryTransport2.createLinkedPair();
  await server2(kind).connect(a);
  await client.connect(b);
  return client;
}

/** SDK v2 on 2026-07-28: the v2 client (`auto`) against `createMcpHandler` in process (its `fetch`, no socket). */
async function modern2(kind: 'bare' | 'served'): Promise<Client2> {
  const handler = createMcpHandler(() => server2(kind));
  const client = new Client2({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const fetch = (url: string | URL | Request, init?: RequestInit) => handler.fetch(new Request(url, init));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch }));
  if (client.getProtocolEra() !== 'modern') throw new Error('the bench client did not reach 2026-07-28');
  return client;
}

/** The bare SDK v2 endpoint on loopback: `createMcpHandler` (2026-07-28) or a session per `initialize` (2025-11-25), as the SDK's examples serve. */
async function bareHttp(revision: 'modern' | 'legacy'): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(() => server2('bare'));
  const modern = toNodeHandler(handler);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const readJson = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
  };
  const http: Server = createServer((req, res) => {
    if (revision === 'modern') return void modern(req, res);
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined && isInitializeRequest(body)) {
        const created = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, created) });
        await server2('bare').connect(created);
        transport = created;
      }
      if (transport === undefined) return void res.writeHead(400).end();
      await transport.handleRequest(req, res, body);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      await handler.close();
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Our `serveHttp` on loopback, its factory serving the registry on a v2 server. */
async function servedHttp(): Promise<{ url: string; close(): Promise<void> }> {
  return serveHttp(() => server2('served'), { maxSessions: 1000 });
}

const HTTP_CLIENTS = 50;

/** Calls per second of `HTTP_CLIENTS` clients calling one after another on their own connection, for `ms`. */
async function httpThroughput(endpoint: { url: string; close(): Promise<void> }, revision: 'modern' | 'legacy', ms: number): Promise<number> {
  const clients = await Promise.all(Array.from({ length: HTTP_CLIENTS }, async () => {
    const client = new Client2({ name: 'bench', version: '1.0.0' }, revision === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    if ((client.getProtocolEra() === 'modern') !== (revision === 'modern')) throw new Error(`the bench client did not reach the ${revision} revision`);
    return client;
  }));
  const warmEnd = Date.now() + Math.min(500, ms / 4);
  await Promise.all(clients.map(async (client) => {
    while (Date.now() < warmEnd) await client.callTool({ name: 'add_numbers', arguments: { a: 1, b: 2 } });
  }));
  let calls = 0;
  const t0 = process.hrtime.bigint();
  const end = Date.now() + ms;
  await Promise.all(clients.map(async (client, c) => {
    for (let i = 0; Date.now() < end; i++) {
      const result = (await client.callTool({ name: 'add_numbers', arguments: { a: i, b: c } })) as { content: Array<{ text: string }> };
      if (result.content[0]?.text !== String(i + c)) throw new Error('wrong sum');
      calls++;
    }
  }));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await Promise.all(clients.map((client) => client.close()));
  await endpoint.close();
  return calls / seconds;
}

const HTTP_CASES = {
  bareHttpLegacy: { name: 'SDK v2, 2025-11-25 sessions: bare SDK endpoint', base: 'bareHttpLegacy', run: (ms: number) => bareHttp('legacy').then((e) => httpThroughput(e, 'legacy', ms)) },
  servedHttpLegacy: { name: 'SDK v2, 2025-11-25 sessions: serveHttp + serveTools', base: 'bareHttpLegacy', run: (ms: number) => servedHttp().then((e) => httpThroughput(e, 'legacy', ms)) },
  bareHttpModern: { name: 'SDK v2, 2026-07-28 stateless: bare createMcpHandler', base: 'bareHttpModern', run: (ms: number) => bareHttp('modern').then((e) => httpThroughput(e, 'modern', ms)) },
  servedHttpModern: { name: 'SDK v2, 2026-07-28 stateless: serveHttp + serveTools', base: 'bareHttpModern', run: (ms: number) => servedHttp().then((e) => httpThroughput(e, 'modern', ms)) },
} as const;
type HttpCaseId = keyof typeof HTTP_CASES;

const QUICK = process.env.BENCH_QUICK === '1';
/**
 * Batches of 200 ms: a call allocates tens of KB, so a batch of 10 ms (the harness's default) after a forced GC mostly
 * holds no scavenge, and the median over such batches leaves out the GC the calls cause. A batch of 200 ms holds
 * several, as a server's steady state does.
 */
const CONFIG = { warmupMs: QUICK ? 100 : 1000, warmupMinIters: QUICK ? 500 : 5000, batches: QUICK ? 4 : 8, batchMs: QUICK ? 20 : 200 };
/** Processes per case: the cases interleave, so a load change on a shared machine hits each case alike. */
const RUNS = QUICK ? 1 : 5;

interface Loops {
  timed(msBudget: number, minIters: number, i0: number): Promise<{ iters: number; ns: number }>;
  batch(n: number, i0: number): Promise<{ ns: number; cpuUs: number }>;
}

const sinkBox: { v: unknown } = { v: undefined };

/** A freshly compiled timing loop for `fn` (the bench-anchors harness's `makeLoops`, async form). */
function makeLoops(fn: (i: number) => unknown): Loops {
  const src = `
    return {
      timed: async function timed(msBudget, minIters, i0) {
        let s, k = 0;
        const end = now() + BigInt(Math.round(msBudget * 1e6));
        const t0 = now();
        while (k < minIters || now() < end) {
          for (let j = 0; j < 64; j++, k++) { s = await fn(i0 + k); }
        }
        const t1 = now();
        sinkBox.v = s;
        return { iters: k, ns: Number(t1 - t0) };
      },
      batch: async function batch(n, i0) {
        let s;
        const c0 = cpu();
        const t0 = now();
        for (let k = 0; k < n; k++) { s = await fn(i0 + k); }
        const t1 = now();
        const c1 = cpu(c0);
        sinkBox.v = s;
        return { ns: Number(t1 - t0), cpuUs: c1.user + c1.system };
      },
    };`;
  return new Function('now', 'cpu', 'fn', 'sinkBox', src)(process.hrtime.bigint, process.cpuUsage, fn, sinkBox) as Loops;
}

/** Interpolated quantile of sorted values (the harness's `quantile`). */
function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Median wall-clock ns per call and median CPU ns per call over timed batches, after a warm-up. */
async function measure(fn: (i: number) => unknown): Promise<{ wallNs: number; cpuNs: number }> {
  const loops = makeLoops(fn);
  let i = 1;
  gc();
  const warm = await loops.timed(CONFIG.warmupMs, CONFIG.warmupMinIters, i);
  i += warm.iters;
  const n = Math.max(1, Math.round((CONFIG.batchMs * 1e6) / Math.max(warm.ns / warm.iters, 0.05)));
  gc();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let b = 0; b < CONFIG.batches; b++) {
    const batch = await loops.batch(n, i);
    i += n;
    wall.push(batch.ns / n);
    cpu.push((batch.cpuUs * 1000) / n);
  }
  return { wallNs: quantile(wall.sort((x, y) => x - y), 0.5), cpuNs: quantile(cpu.sort((x, y) => x - y), 0.5) };
}

const median = (values: number[]) => quantile([...values].sort((x, y) => x - y), 0.5);

const CASES = {
  bare: { name: 'SDK 1.x, 2025-11-25 in memory: bare McpServer.registerTool (zod)', base: 'bare', connect: bareSdk },
  cancellable: { name: 'same, handler listening to the request signal', base: 'bare', connect: bareCancellable },
  served: { name: 'SDK 1.x, 2025-11-25 in memory: serveTools (TypeBox registry)', base: 'bare', connect: served },
  bare2legacy: { name: 'SDK v2, 2025-11-25 in memory: bare registerTool (zod)', base: 'bare2legacy', connect: () => legacy2('bare') },
  served2legacy: { name: 'SDK v2, 2025-11-25 in memory: serveTools', base: 'bare2legacy', connect: () => legacy2('served') },
  bare2modern: { name: 'SDK v2, 2026-07-28 createMcpHandler in process: bare registerTool (zod)', base: 'bare2modern', connect: () => modern2('bare') },
  served2modern: { name: 'SDK v2, 2026-07-28 createMcpHandler in process: serveTools', base: 'bare2modern', connect: () => modern2('served') },
} as const;
type CaseId = keyof typeof CASES;

/** One case in this process: sanity check, then one measurement, printed as JSON on the last line of stdout. */
async function runCase(id: CaseId): Promise<void> {
  const client = (await CASES[id].connect()) as Client;
  const check = (await client.callTool({ name: 'add_numbers', arguments: { a: 1, b: 2 } })) as { content: Array<{ text: string }> };
  if (check.content[0]?.text !== '3') throw new Error('sanity check failed');
  const m = await measure((i) => client.callTool({ name: 'add_numbers', arguments: { a: i, b: 2 } }));
  await client.close();
  console.log(JSON.stringify(m));
}

/** One HTTP case in this process: calls per second, printed as JSON on the last line of stdout. */
async function runHttpCase(id: HttpCaseId): Promise<void> {
  console.log(JSON.stringify({ perSecond: await HTTP_CASES[id].run(QUICK ? 1000 : 3000) }));
}

/** Runs one case in a fresh process (as the bench-anchors runner does, one process per library). */
function inChild<T>(id: CaseId | HttpCaseId): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', __filename], { env: { ...process.env, MCP_BENCH_CASE: id } }, (error, stdout) => {
      if (error) return reject(error);
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as T);
    });
  });
}

export default async function mcpBench(): Promise<void> {
  const ids = Object.keys(CASES) as CaseId[];
  const runs = ids.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let run = 0; run < RUNS; run++) {
    for (const [index, id] of ids.entries()) {
      const m = await inChild<{ wallNs: number; cpuNs: number }>(id);
      runs[index]!.wall.push(m.wallNs);
      runs[index]!.cpu.push(m.cpuNs);
    }
  }
  const wall = runs.map((r) => median(r.wall));
  const cpu = runs.map((r) => median(r.cpu));
  const best = runs.map((r) => Math.min(...r.wall));
  const base = ids.map((id) => ids.indexOf(CASES[id].base));
  printTable(
    `MCP server: one tools/call (median of ${RUNS} runs, one process per case and run, ${CONFIG.batches} batches of ${CONFIG.batchMs} ms each; target: serveTools <= 1.10 x the bare SDK server of its line and revision, which the "x bare" columns compare with)`,
    ['server', 'wall median', 'wall runs', 'x bare (wall)', 'CPU per call', 'x bare (CPU)', 'best run', 'x bare (best)'],
    ids.map((id, index) => [
      CASES[id].name,
      formatNs(wall[index]!),
      runs[index]!.wall.map(formatNs).join(', '),
      (wall[index]! / wall[base[index]!]!).toFixed(2),
      formatNs(cpu[index]!),
      (cpu[index]! / cpu[base[index]!]!).toFixed(2),
      formatNs(best[index]!),
      (best[index]! / best[base[index]!]!).toFixed(2),
    ]),
  );
  const httpIds = Object.keys(HTTP_CASES) as HttpCaseId[];
  const rates = httpIds.map(() => [] as number[]);
  for (let run = 0; run < 3; run++) {
    for (const [index, id] of httpIds.entries()) rates[index]!.push((await inChild<{ perSecond: number }>(id)).perSecond);
  }
  const rate = rates.map(median);
  printTable(
    `MCP over HTTP on loopback: tools/call per second, ${HTTP_CLIENTS} concurrent clients each calling one after another (median of three runs, one process per case and run; client and server share the process)`,
    ['endpoint', 'calls/s median', 'calls/s runs', 'x bare'],
    httpIds.map((id, index) => [
      HTTP_CASES[id].name,
      rate[index]!.toFixed(0),
      rates[index]!.map((r) => r.toFixed(0)).join(', '),
      (rate[index]! / rate[httpIds.indexOf(HTTP_CASES[id].base)]!).toFixed(2),
    ]),
  );
}

const child = process.env.MCP_BENCH_CASE as CaseId | undefined;
if (require.main === module && child !== undefined && (child in CASES || child in HTTP_CASES)) {
  (child in CASES ? runCase(child) : runHttpCase(child as unknown as HttpCaseId)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
