// Rules that would silently match nothing: refused against a registry (checkRules, runToolCalls), and fail closed
// at check time on every path that uses the engine, in every mode.
import { Type } from '@sinclair/typebox';
import { Action, runToolCalls, ToolEffect, Tools } from '../../lib';
import { pathRule, PermissionBehavior, PermissionConfigError, PermissionEngine, PermissionMode } from '../../lib/permissions';

class Ops {
  @Action('Deploy.', { params: Type.Object({ target: Type.String() }), effects: [ToolEffect.NETWORK] })
  deploy(): string {
    return 'deployed';
  }

  @Action('Read.', { params: Type.Object({ path: Type.String() }), effects: [ToolEffect.READS_WORKSPACE], permissions: pathRule('path') })
  Read(): string {
    return 'read';
  }
}

const registry = () => new Tools().register(new Ops());
const mcpTool = { name: 'mcp__github__create_issue', isMcp: true, mcpName: 'github', hasRuleMatcher: false };

function refusal(deny: string[], tools: Parameters<PermissionEngine['checkRules']>[0] = registry()): string {
  try {
    new PermissionEngine({ settings: { deny } }).checkRules(tools);
  } catch (error) {
    expect(error).toBeInstanceOf(PermissionConfigError);
    expect((error as PermissionConfigError).code).toBe('RULE_MATCHES_NOTHING');
    return (error as Error).message;
  }
  throw new Error('no refusal');
}

describe('checkRules against a registry', () => {
  it.each([
    ['deploy(prod)', 'deploy judges no rule content', 'Write deploy without content'],
    ['Deploy', 'differs only by case from the tool deploy', 'Write deploy.'],
    ['read(src/**)', 'differs only by case from the tool Read', 'Write Read(src/**).'],
    ['READ(src/**)', 'differs only by case', 'Write Read(src/**).'],
    ['Bash(rm:*)', 'names no registered tool', 'Fix its tool name, register the tool, or remove the rule'],
    ['deploy*', 'names no registered tool', 'remove the rule'],
    ['deplo', 'did you mean deploy?', 'remove the rule'],
  ])('refuses %s, naming the rule and the fix', (rule, why, fix) => {
    const message = refusal([rule]);
    expect(message).toContain(rule);
    expect(message).toContain(why);
    expect(message).toContain(fix);
  });

  it('lists every refused rule at once, one per line', () => {
    expect(refusal(['deploy(prod)', 'bash(rm:*)', 'Nope']).split('\n')).toHaveLength(3);
  });

  it('accepts sound rules: tool-wide, content on a matcher, an MCP server prefix with registered tools', () => {
    const tools = [...registry().list(), mcpTool];
    const engine = new PermissionEngine({ settings: { deny: ['deploy', 'Read(secret/**)', 'mcp__github', 'mcp__github__*', 'mcp__github__create_issue'] } });
    expect(engine.checkRules(tools)).toEqual({ warnings: [] });
  });

  it('warns (never refuses) about an MCP server whose tools are not registered yet, unless it is listed', () => {
    const engine = new PermissionEngine({ settings: { deny: ['mcp__slack__post', 'mcp__jira'] } });
    const { warnings } = engine.checkRules(registry());
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("MCP server 'slack'");
    expect(engine.checkRules(registry(), { mcpServers: ['slack', 'jira'] }).warnings).toEqual([]);
  });

  it('runToolCalls refuses a rule set that matches nothing before running anything', async () => {
    const engine = new PermissionEngine({ settings: { deny: ['bash(rm:*)'] } });
    await expect(runToolCalls(registry(), [{ id: 'c1', name: 'deploy', args: { target: 'prod' } }], { engine })).rejects.toMatchObject({ code: 'RULE_MATCHES_NOTHING' });
  });
});

describe('at check time, a deny or ask rule meant for the tool that matches nothing fails closed, in every mode', () => {
  const deploy = registry().get('deploy')!;
  const read = registry().get('Read')!;
  it.each(Object.values(PermissionMode))('%s', async (mode) => {
    for (const [rules, tool, args] of [
      [{ deny: ['deploy(prod)'] }, deploy, { target: 'prod' }],
      [{ ask: ['deploy(prod)'] }, deploy, { target: 'prod' }],
      [{ deny: ['read(secret/**)'] }, read, { path: 'secret/x' }],
      [{ deny: ['DEPLOY'] }, deploy, { target: 'x' }],
    ] as const) {
      const decision = await new PermissionEngine({ mode, settings: rules }).check(tool, args);
      expect([rules, decision.behavior]).toEqual([rules, PermissionBehavior.DENY]);
      expect(decision.message).toMatch(/Write (deploy|Read)/);
    }
    // An allow rule that matches nothing only leaves the call to ask (BYPASS allows anyway): never widened.
    if (mode !== PermissionMode.BYPASS) expect((await new PermissionEngine({ mode, settings: { allow: ['deploy(prod)'] } }).check(deploy, { target: 'prod' })).behavior)
      .not.toBe(PermissionBehavior.ALLOW);
  });
});
