/**
 * The NestJS example (`npm run example:nest`): in-process, and compiled to CommonJS and run by Node itself, which
 * loads the ES-module-only @nestjs/* packages through require(esm) (Node 20.19+), as a user's compiled app does.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../examples/nestjs/main';

const ROOT = join(__dirname, '../..');
const EXPECTED = [
  'forecast({"city":"Oslo"}) -> "Oslo: snow, -3 °C"',
  'orders_myOrders({}) -> ["o-1","o-2"]',
  "orders_cancelOrder({\"orderId\":\"o-1\"}) -> error: The user declined to run tool 'orders_cancelOrder'. Do not retry it unchanged; ask the user or take another approach.",
  'orders_cancelOrder({"orderId":"o-2"}) -> "cancelled o-2"',
  'orders_myOrders({}) -> ["o-1"]',
];

describe('the NestJS example (npm run example:nest)', () => {
  it('lists the tools of both feature modules and answers the calls, one declined by the approval step', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines.slice(0, 4)).toEqual([
      'Tools (Anthropic format):',
      '  forecast: Get the forecast for a city. {"city":{"type":"string","description":"City name, for example Oslo."}}',
      "  orders_myOrders: List the current user's orders. {}",
      '  orders_cancelOrder: Cancel an order. {"orderId":{"type":"string"}}',
    ]);
    expect(lines.slice(4)).toEqual(EXPECTED);
  });

  it('runs compiled, under Node with the @nestjs/* ES modules loaded through require(esm)', () => {
    const out = join(ROOT, 'build', 'nestjs-example-check');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.run.json', compilerOptions: { rootDir: '../..', outDir: '.' }, include: ['../../examples/nestjs'] }));
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', out], { cwd: ROOT, stdio: 'pipe' });
      const stdout = execFileSync(process.execPath, [join(out, 'examples/nestjs/main.js')], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(stdout.trimEnd().split('\n').slice(4)).toEqual(EXPECTED);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
