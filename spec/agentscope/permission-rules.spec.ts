import {
  formatPermissionRule,
  formatPermissionSettings,
  parsePermissionRule,
  parsePermissionSettings,
  PermissionBehavior,
  PermissionConfigError,
  permissionRule,
  ruleNamesTool,
  type PermissionSubject,
} from '../../lib/permissions';

describe('permission rule strings', () => {
  it.each(['Bash', 'Bash(git commit:*)', 'Write(src/**)', 'Bash(echo (nested) parens)', 'mcp__github', 'mcp__github__*', 'Read(/etc/*.conf)'])('round-trips %s', (text) => {
    const rule = parsePermissionRule(text, PermissionBehavior.ALLOW, 'project');
    expect(formatPermissionRule(rule)).toBe(text);
    expect(rule.source).toBe('project');
    expect(Object.isFrozen(rule)).toBe(true);
  });

  it('parses the tool name and content', () => {
    expect(parsePermissionRule('  Bash(git commit:*)  ', PermissionBehavior.DENY)).toEqual({ toolName: 'Bash', ruleContent: 'git commit:*', behavior: PermissionBehavior.DENY });
    expect(parsePermissionRule('Read', PermissionBehavior.ASK)).toEqual({ toolName: 'Read', behavior: PermissionBehavior.ASK });
  });

  it.each(['', 'Bash(', 'Bash(x', 'Bash(x) y', '(x)', 'Ba sh', 'Bash()', 'Bash(   )'])('rejects %j with a message showing the accepted forms', (text) => {
    let error: unknown;
    try {
      parsePermissionRule(text, PermissionBehavior.ALLOW);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PermissionConfigError);
    expect((error as PermissionConfigError).code).toBe('INVALID_PERMISSION_RULE');
    expect((error as Error).message).toMatch(/Bash|`/);
  });

  it('permissionRule drops empty content', () => {
    expect(permissionRule('Read', PermissionBehavior.ALLOW, '')).toEqual({ toolName: 'Read', behavior: PermissionBehavior.ALLOW });
  });

  it('parses and prints settings files', () => {
    const settings = { allow: ['Read', 'Bash(npm run:*)'], deny: ['Bash(rm:*)'], ask: ['Write(.github/**)'] };
    const rules = parsePermissionSettings(settings, 'user');
    expect(rules.map((r) => [r.behavior, formatPermissionRule(r), r.source])).toEqual([
      ['deny', 'Bash(rm:*)', 'user'],
      ['ask', 'Write(.github/**)', 'user'],
      ['allow', 'Read', 'user'],
      ['allow', 'Bash(npm run:*)', 'user'],
    ]);
    expect(formatPermissionSettings(rules)).toEqual(settings);
    expect(parsePermissionSettings({})).toEqual([]);
  });

  it('names MCP tools by server', () => {
    const tool = { name: 'mcp__github__create_issue', isMcp: true, mcpName: 'github' } as PermissionSubject;
    const rule = (name: string) => permissionRule(name, PermissionBehavior.ALLOW);
    expect(ruleNamesTool(rule('mcp__github__create_issue'), tool)).toBe(true);
    expect(ruleNamesTool(rule('mcp__github'), tool)).toBe(true);
    expect(ruleNamesTool(rule('mcp__github__*'), tool)).toBe(true);
    expect(ruleNamesTool(rule('mcp__gitlab'), tool)).toBe(false);
    expect(ruleNamesTool(rule('mcp__github'), { ...tool, isMcp: false } as PermissionSubject)).toBe(false);
    expect(ruleNamesTool(rule('mcp__undefined'), { ...tool, mcpName: undefined } as PermissionSubject)).toBe(false);
  });
});
