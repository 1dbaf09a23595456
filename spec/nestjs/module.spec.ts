import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { ContextIdFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Action, ToolContext, ToolSchemaFormat, Tools, type ToolLogger } from '../../lib';
import { AgentToolkitModule, AGENT_TOOLKIT_OPTIONS, NEST_CONTEXT_ID, NEST_REQUEST, nestToken, type AgentToolkitModuleOptions } from '../../lib/nestjs';
import { SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { Skills } from '../../lib/skills';
import { AuditTools, BillingModule, Locale, OpsModule, PaymentsService, ReportsModule, TENANT } from './app';

const quiet: ToolLogger = { warn: () => undefined, error: () => undefined };

async function start(options: AgentToolkitModuleOptions = {}, imports: unknown[] = [BillingModule, ReportsModule, OpsModule]): Promise<INestApplicationContext> {
  const moduleRef = await Test.createTestingModule({ imports: [AgentToolkitModule.forRoot({ logger: quiet, ...options }), ...(imports as [])] }).compile();
  return moduleRef.init();
}

describe('AgentToolkitModule', () => {
  let app: INestApplicationContext | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('registers the tools of every provider with @Action methods on init, with their @ToolGroup and forFeature names', async () => {
    app = await start({ approve: () => true });
    const tools = app.get(Tools);
    expect(tools.list().map((t) => [t.name, t.group])).toEqual([
      ['charge', 'billing'],
      ['refund', 'billing'],
      ['whoAmI', 'billing'],
      ['tenant', 'billing'],
      ['note', 'billing'],
      ['explode', 'billing'],
      ['crash', 'billing'],
      ['reports_summary', 'ReportTools'],
      ['audit', 'AuditTools'],
      ['ping', 'OpsTools'],
    ]);
    expect(tools.getSchema(ToolSchemaFormat.ANTHROPIC).map((t) => t.name)).toContain('reports_summary');
  });

  it('registers nothing before the module initializes, and each provider once (an alias of it included)', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolkitModule.forRoot({ logger: quiet }), BillingModule, ReportsModule] }).compile();
    expect(moduleRef.get(Tools).list()).toEqual([]);
    app = await moduleRef.init();
    expect(moduleRef.get(Tools).list().filter((t) => t.name === 'charge')).toHaveLength(1);
  });

  it('resolves a class-token provider and a string-token provider into a tool method, with no ToolContext code', async () => {
    app = await start();
    const tools = app.get(Tools);
    const result = await tools.execute('charge', { amount: 30 });
    expect(result).toMatchObject({ ok: true, result: 'charged 30 EUR' });
    expect(app.get(PaymentsService, { strict: false }).charged).toEqual([30]);
  });

  it('binds a provider whose value is not an instance of its abstract class token', async () => {
    app = await start();
    expect((await app.get(Tools).execute('whoAmI', {})).result).toMatch(/ at 42$/);
  });

  it('resolves request-scoped providers in a new context id per call, or in the one the host passes', async () => {
    app = await start();
    const tools = app.get(Tools);
    const serial = async (context?: ToolContext) => /#(\d+)/.exec(String((await tools.execute('whoAmI', {}, { context })).result))![1];
    const [a, b] = [await serial(), await serial()];
    expect(a).not.toBe(b);
    const contextId = ContextIdFactory.create();
    const shared = new ToolContext().provide(NEST_CONTEXT_ID, contextId);
    expect(await serial(shared)).toBe(await serial(shared));
  });

  it("resolves in the HTTP request's context id, where Nest's REQUEST is that request", async () => {
    app = await start();
    const tools = app.get(Tools);
    const request = { user: 'ada' };
    const context = new ToolContext().provide(NEST_REQUEST, request);
    const first = await tools.execute('whoAmI', {}, { context });
    expect(first.result).toMatch(/^request #\d+ of ada at 42$/);
    expect((await tools.execute('whoAmI', {}, { context })).result).toBe(first.result);
    expect((await tools.execute('reports_summary', { title: 'Q3' }, { context })).result).toBe(`Q3 for request #${/#(\d+)/.exec(String(first.result))![1]} (1 note)`);
  });

  it('runs a request-scoped tool provider on an instance of the call, a transient one on a new instance per call', async () => {
    app = await start();
    const tools = app.get(Tools);
    const one = await tools.execute('reports_summary', { title: 'a' });
    const two = await tools.execute('reports_summary', { title: 'b' });
    expect(one.result).toMatch(/^a for request #\d+ \(1 note\)$/);
    expect(two.result).toMatch(/^b for request #\d+ \(1 note\)$/);
    const serial = (text: unknown) => /#(\d+)/.exec(String(text))![1];
    expect(serial(one.result)).not.toBe(serial(two.result));
    const first = (await tools.execute('audit', {})).result as number;
    expect((await tools.execute('audit', {})).result).toBe(first + 1);
    expect(AuditTools.created).toBeGreaterThanOrEqual(first + 1);
  });

  it('injects a transient provider into a tool method: a new instance per call, one per shared context id', async () => {
    app = await start();
    const tools = app.get(Tools);
    expect((await tools.execute('note', { text: 'a' })).result).toBe(1);
    expect((await tools.execute('note', { text: 'b' })).result).toBe(1);
    const context = new ToolContext().provide(NEST_CONTEXT_ID, ContextIdFactory.create());
    expect((await tools.execute('note', { text: 'c' }, { context })).result).toBe(1);
    expect((await tools.execute('note', { text: 'd' }, { context })).result).toBe(2);
  });

  it('refuses to run a scoped tool outside the registry, and streams through it', async () => {
    app = await start();
    const tools = app.get(Tools);
    const tool = tools.get('reports_summary')!;
    expect(() => tool.invoke({ title: 'x' }, { context: new ToolContext(), signal: new AbortController().signal })).toThrow(expect.objectContaining({ code: 'NEST_SCOPED_TOOL_OUTSIDE_CALL' }));
    const stream = tools.stream('reports_summary', { title: 's' });
    expect((await stream.result).result).toMatch(/^s for request/);
  });

  it('serves what is not a Nest provider from the per-call ToolContext, and fails the call when it is missing', async () => {
    app = await start();
    const tools = app.get(Tools);
    expect((await tools.execute('tenant', {}, { context: new ToolContext().provide(TENANT, 'acme') })).result).toBe('acme false no locale');
    expect((await tools.execute('tenant', {}, { context: new ToolContext(new Locale('nb-NO')).provide(TENANT, 'acme') })).result).toBe('acme false nb-NO');
    const missing = await tools.execute('tenant', {});
    expect(missing.ok).toBe(false);
    expect(missing.error).toMatch(/^Tool 'tenant' cannot run right now: a service it needs is not configured/);
  });

  it('gates approval: no approver fails the call unrun, a "no" declines it, a "yes" runs it', async () => {
    app = await start();
    let result = await app.get(Tools).execute('refund', { orderId: 'o-1' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Tool 'refund' was not run: it needs approval/);
    await app.close();

    const asked: string[] = [];
    app = await start({ approve: (call) => (asked.push(`${call.name} ${JSON.stringify(call.params)}`), call.params.orderId === 'o-2') });
    const tools = app.get(Tools);
    result = await tools.execute('refund', { orderId: 'o-1' });
    expect(result.error).toMatch(/^The user declined to run tool 'refund'/);
    expect((await tools.execute('refund', { orderId: 'o-2' })).result).toBe('refunded o-2');
    expect((await tools.execute('charge', { amount: 1 })).ok).toBe(true);
    expect(asked).toEqual(['refund {"orderId":"o-1"}', 'refund {"orderId":"o-2"}']);
    expect(app.get(PaymentsService, { strict: false }).refunded).toEqual(['o-2']);
  });

  it('turns a failing tool, a bug and a provider that cannot be built into failed results, never exceptions', async () => {
    const errors: string[] = [];
    app = await start({ logger: { warn: () => undefined, error: (message) => void errors.push(message) } });
    const tools = app.get(Tools);
    expect(await tools.execute('explode', {})).toMatchObject({ ok: false, error: expect.stringContaining('the ledger is locked') });
    const crash = await tools.execute('crash', {});
    expect(crash.ok).toBe(false);
    expect(crash.error).not.toContain(' at ');
    const ping = await tools.execute('ping', {});
    expect(ping.ok).toBe(false);
    expect(ping.error).not.toContain('database unreachable');
    expect(errors.length).toBeGreaterThan(0);
    expect((await tools.execute('nope', {})).error).toMatch(/^Unknown tool 'nope'/);
  });

  it('runs the host middleware between the approval gate and the Nest resolution', async () => {
    const seen: string[] = [];
    app = await start({ middleware: [{ handle: (call, next) => (seen.push(call.name), next(call)) }] });
    await app.get(Tools).execute('charge', { amount: 2 });
    expect(seen).toEqual(['charge']);
  });

  it("discover: 'feature' registers only the providers named by forFeature", async () => {
    app = await start({ discover: 'feature' });
    expect(app.get(Tools).list().map((t) => t.name)).toEqual(['reports_summary', 'audit']);
  });

  it('fails to start when forFeature names a provider no module provides', async () => {
    @Injectable()
    class Orphan {
      @Action('Never provided.')
      orphan(): string {
        return 'x';
      }
    }
    @Module({ imports: [AgentToolkitModule.forFeature([Orphan])] })
    class OrphanModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolkitModule.forRoot({ logger: quiet }), OrphanModule] }).compile();
    await expect(moduleRef.init()).rejects.toMatchObject({ code: 'NEST_FEATURE_UNKNOWN', message: expect.stringContaining('Orphan') });
    await moduleRef.close();
  });

  it('forRootAsync builds the options with injected providers', async () => {
    @Module({ providers: [{ provide: 'APPROVER', useValue: () => true }], exports: ['APPROVER'] })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        AgentToolkitModule.forRootAsync({ imports: [ConfigModule], inject: ['APPROVER'], useFactory: async (approve: () => boolean) => ({ approve, logger: quiet }) }),
        BillingModule,
      ],
    }).compile();
    app = await moduleRef.init();
    expect((await app.get(Tools).execute('refund', { orderId: 'o-9' })).result).toBe('refunded o-9');
    expect(app.get(AGENT_TOOLKIT_OPTIONS)).toMatchObject({ logger: quiet });
  });

  it('forRootAsync takes a factory without imports or inject', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolkitModule.forRootAsync({ useFactory: () => ({ logger: quiet, discover: 'feature' }) }), BillingModule] }).compile();
    app = await moduleRef.init();
    expect(app.get(Tools).list()).toEqual([]);
  });

  it('names a string token forFeature cannot find', async () => {
    @Module({ imports: [AgentToolkitModule.forFeature([{ provider: 'MISSING_TOOLS', prefix: 'x_' }])] })
    class MissingModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AgentToolkitModule.forRoot({ logger: quiet }), MissingModule] }).compile();
    await expect(moduleRef.init()).rejects.toMatchObject({ code: 'NEST_FEATURE_UNKNOWN', message: expect.stringContaining('names MISSING_TOOLS,') });
    await moduleRef.close();
  });

  it('maps one Nest token to one InjectionToken', () => {
    expect(nestToken('A')).toBe(nestToken('A'));
    expect(nestToken('A')).not.toBe(nestToken('B'));
    const symbol = Symbol('S');
    expect(nestToken(symbol).toString()).toBe('InjectionToken(Nest Symbol(S))');
  });

  describe('on application shutdown', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'nest-shutdown-'));
      mkdirSync(join(dir, 'greet'));
      writeFileSync(join(dir, 'greet', 'SKILL.md'), '---\nname: greet\ndescription: Greets people.\n---\nSay hello.\n');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('closes the sandboxes and the skills watchers; a close that fails is logged and the rest still close', async () => {
      const sandbox = new UnsafeLocalSandbox(SandboxPolicy.forWorkspace(dir));
      const skills = await Skills.fromLocalDir(dir);
      await skills.watch({ debounceMs: 20 });
      const errors: string[] = [];
      const failing = { close: () => Promise.reject(new Error('already gone')) };
      app = await start({ sandboxes: [failing, sandbox], skills: [skills], logger: { warn: () => undefined, error: (m) => void errors.push(m) } }, [BillingModule]);
      expect((await sandbox.execute('echo up')).stdout).toBe('up\n');
      expect(skills.watching).toBe(true);
      await app.close();
      app = undefined;
      await expect(sandbox.execute('echo up')).rejects.toMatchObject({ code: 'SANDBOX_CLOSED' });
      expect(skills.watching).toBe(false);
      expect(errors).toEqual(['AgentToolkitModule: closing a sandbox or skills registry on shutdown failed']);
    });
  });
});
