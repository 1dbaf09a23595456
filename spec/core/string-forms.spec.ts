/** Values a newcomer prints: formats and permission rules read as text, not "[object Object]". */
import { ToolSchemaFormat } from '../../lib';
import { PermissionBehavior, PermissionDecision, parsePermissionRule, permissionRule } from '../../lib/permissions';

describe('string forms', () => {
  it('every built-in format reads as its id', () => {
    expect(`${ToolSchemaFormat.OPENAI}`).toBe('openai');
    expect(String(ToolSchemaFormat.GEMINI)).toBe('gemini');
    for (const format of Object.values(ToolSchemaFormat)) expect(`${format}`).toBe(format.id);
    // Not an enumerable field: the value keeps its shape.
    expect(Object.keys(ToolSchemaFormat.MCP)).toEqual(['id', 'render']);
  });

  it('a rule, and each suggestion of a decision (plain objects from a hook included), reads as its string form', () => {
    expect(String(permissionRule('Bash', PermissionBehavior.ALLOW, 'git commit:*'))).toBe('Bash(git commit:*)');
    expect(`${parsePermissionRule('Write(src/**)', PermissionBehavior.ASK)}`).toBe('Write(src/**)');
    const decision = PermissionDecision.ask('Needs approval.', { suggestions: [{ toolName: 'Read', behavior: PermissionBehavior.ALLOW }, permissionRule('Edit', PermissionBehavior.ALLOW, 'docs/**')] });
    expect(decision.suggestions.map(String)).toEqual(['Read', 'Edit(docs/**)']);
    expect(decision.suggestions[0]).toEqual({ toolName: 'Read', behavior: PermissionBehavior.ALLOW });
    expect(JSON.stringify(decision.suggestions[1])).toBe('{"toolName":"Edit","behavior":"allow","ruleContent":"docs/**"}');
  });
});
