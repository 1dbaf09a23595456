import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolContext, ToolEffect, ToolSchemaFormat, Tools, type ToolLogger } from '../../lib';
import { SKILL_VIEWER_TOOL_NAME, Skills, registerSkillViewer } from '../../lib/skills';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

const silent = { warn: () => undefined, error: () => undefined };

async function viewerWith(...names: string[]) {
  return viewerLogging(silent, ...names);
}

async function viewerLogging(logger: ToolLogger, ...names: string[]) {
  const root = tempDir();
  for (const name of names) writeSkill(root, name, skillText(name, { body: `# ${name}\n\nRead references/guide.md first.` }));
  const skills = await Skills.fromLocalDir(root);
  const tools = new Tools({ context: new ToolContext(skills), logger });
  const tool = registerSkillViewer(tools);
  return { root, skills, tools, tool };
}

describe('skill viewer tool', () => {
  it('is a read-only tool named view_skill with an optional name parameter', async () => {
    const { tool, tools } = await viewerWith('alpha');
    expect(tool.name).toBe(SKILL_VIEWER_TOOL_NAME);
    expect([...tool.effects]).toEqual([ToolEffect.READS_WORKSPACE]);
    expect(tool.tags.has('skills')).toBe(true);
    expect(tool.group).toBe('skills');
    expect(tool.parameters).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false });
    expect(tool.parameters.required).toBeUndefined();
    expect(tools.getSchema(ToolSchemaFormat.OPENAI).map((entry) => JSON.stringify(entry))).toEqual([expect.stringContaining('"view_skill"')]);
    expect(tool.formatStatus({})).toBe('Listing skills...');
    expect(tool.formatStatus({ name: 'alpha' })).toBe('Opening skill alpha...');
  });

  it('lists the skills when called without a name', async () => {
    const { tools, skills } = await viewerWith('alpha', 'beta');
    const result = await tools.execute(SKILL_VIEWER_TOOL_NAME, {});
    expect(result.ok).toBe(true);
    expect(result.result).toBe(skills.renderPrompt());
    expect(result.result).toContain('<name>beta</name>');
  });

  it("returns a skill's instructions, directory and resources by name", async () => {
    const { root, tools } = await viewerWith('alpha');
    mkdirSync(join(root, 'alpha', 'references'));
    writeFileSync(join(root, 'alpha', 'references', 'guide.md'), 'guide');
    const result = await tools.execute(SKILL_VIEWER_TOOL_NAME, { name: 'alpha' });
    expect(result.result).toBe(
      [
        'Skill: alpha',
        `Directory: ${join(realpathSync(root), 'alpha')}`,
        'Resources (relative to the directory):',
        '- references/guide.md',
        '',
        '# alpha\n\nRead references/guide.md first.',
      ].join('\n'),
    );
    const bare = await tools.execute(SKILL_VIEWER_TOOL_NAME, '{"name":"alpha"}');
    expect(bare.ok).toBe(true);
  });

  it('says "(none)" for a skill without resources', async () => {
    const { tools } = await viewerWith('solo');
    expect((await tools.execute(SKILL_VIEWER_TOOL_NAME, { name: 'solo' })).result).toContain('Resources (relative to the directory):\n(none)');
  });

  it('answers an unknown name with a failed result listing the skills', async () => {
    const { tools } = await viewerWith('alpha', 'beta');
    const result = await tools.execute(SKILL_VIEWER_TOOL_NAME, { name: 'gamma' });
    expect(result.ok).toBe(false);
    expect(result.error).toBe("Unknown skill 'gamma'. Available: alpha, beta");
  });

  it('logs an unknown name as one debug line without a stack (an expected failure, not a bug, so not a warning)', async () => {
    const lines: unknown[][] = [];
    const collect = (level: string) => (...args: unknown[]) => void lines.push([level, ...args]);
    const { tools } = await viewerLogging({ debug: collect('debug'), warn: collect('warn'), error: collect('error') }, 'alpha');
    await tools.execute(SKILL_VIEWER_TOOL_NAME, { name: 'gamma' });
    expect(lines.filter(([level, message]) => level !== 'debug' || String(message).startsWith("Tool '"))).toEqual([['debug', "Tool 'view_skill' failed: Unknown skill 'gamma'. Available: alpha"]]);
  });

  it('answers an invalid SKILL.md on disk with the broken rule, without activating it', async () => {
    const { root, tools, skills } = await viewerWith('alpha');
    writeFileSync(join(root, 'alpha', 'SKILL.md'), '---\nname: alpha\ndescription: ok\n---\n');
    const result = await tools.execute(SKILL_VIEWER_TOOL_NAME, { name: 'alpha' });
    expect(result.ok).toBe(false);
    expect(result.error).toContain('(rule: body)');
    expect(skills.get('alpha')!.description).not.toBe('ok');
  });

  it('is offered only when the context holds a Skills registry with at least one skill', async () => {
    const { tools } = await viewerWith();
    expect(tools.getAvailable().map((t) => t.name)).toEqual([]);
    const result = await tools.execute(SKILL_VIEWER_TOOL_NAME, {});
    expect(result.error).toBe(`Unknown tool '${SKILL_VIEWER_TOOL_NAME}'. Available: (none)`);
    expect(tools.getAvailable(new ToolContext())).toEqual([]);
    const withSkills = await viewerWith('one');
    expect(withSkills.tools.getAvailable().map((t) => t.name)).toEqual([SKILL_VIEWER_TOOL_NAME]);
  });

  it('takes another name and group', async () => {
    const tools = new Tools({ logger: silent });
    const tool = registerSkillViewer(tools, { name: 'Skill', group: 'meta' });
    expect(tools.get('Skill')).toBe(tool);
    expect(tool.group).toBe('meta');
    expect(() => registerSkillViewer(tools, { name: 'Skill' })).toThrow("Tool 'Skill' already registered");
  });
});
