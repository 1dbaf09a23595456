import { Type } from '@sinclair/typebox';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActionResult, ToolContext, ToolEffect, Tools } from '../../lib';
import { SkillRefreshMiddleware, Skills, writesWorkspace } from '../../lib/skills';
import { cleanup, recordingLogger, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

const WriteParams = Type.Object({ path: Type.String(), text: Type.String() });

/** A registry with real file-writing tools: one declaring WRITES_WORKSPACE, one only tagged, one that fails. */
function agentTools(root: string, middleware: SkillRefreshMiddleware, context: ToolContext): Tools {
  const write = ({ path, text }: { path: string; text: string }) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const tools = new Tools({ context, middleware: [middleware], logger: { warn: () => undefined, error: () => undefined } });
  tools.action({ name: 'write_file', description: 'Write a file.', params: WriteParams, effects: [ToolEffect.WRITES_WORKSPACE] }, (params) => {
    write(params);
    return ActionResult.success(`wrote ${params.path}`);
  });
  tools.action({ name: 'tagged_write', description: 'Writes, tagged only.', params: WriteParams, tags: ['skills-writer'] }, (params) => {
    write(params);
    return `wrote ${params.path}`;
  });
  tools.action({ name: 'failing_write', description: 'Writes, then fails.', params: WriteParams, effects: [ToolEffect.WRITES_WORKSPACE] }, (params) => {
    write(params);
    throw new Error('disk full');
  });
  return tools;
}

async function setup(options: ConstructorParameters<typeof SkillRefreshMiddleware>[0] = {}) {
  const root = tempDir();
  writeSkill(root, 'existing');
  const skills = await Skills.fromLocalDir(root);
  const logger = recordingLogger();
  const tools = agentTools(root, new SkillRefreshMiddleware({ logger, ...options }), new ToolContext(skills));
  return { root, skills, logger, tools };
}

describe('SkillRefreshMiddleware', () => {
  it('refreshes the context skills after a WRITES_WORKSPACE tool, leaving the result untouched', async () => {
    const { skills, tools } = await setup();
    const result = await tools.execute('write_file', { path: 'agent-made/SKILL.md', text: skillText('agent-made') });
    expect(result).toEqual(ActionResult.success('wrote agent-made/SKILL.md'));
    expect(skills.get('agent-made')).toBeDefined();
    expect(skills.revision).toBe(1);
  });

  it('sees a write at once even while the registry is watched', async () => {
    const { skills, tools } = await setup();
    await skills.watch({ debounceMs: 60_000 });
    await skills.refreshIfChanged(); // consumes the first check after watch(); from now on the watcher is trusted
    try {
      await tools.execute('write_file', { path: 'fresh/SKILL.md', text: skillText('fresh') });
      expect(skills.get('fresh')).toBeDefined();
    } finally {
      await skills.close();
    }
  });

  it('refreshes after a failed write tool too, and passes its failure through', async () => {
    const { skills, tools } = await setup();
    const result = await tools.execute('failing_write', { path: 'half-done/SKILL.md', text: skillText('half-done') });
    expect(result.ok).toBe(false);
    expect(result.error).toBe("Tool 'failing_write' failed: disk full");
    expect(skills.get('half-done')).toBeDefined();
  });

  it('ignores tools without the effect by default, and follows a custom `when`', async () => {
    const plain = await setup();
    await plain.tools.execute('tagged_write', { path: 'tagged/SKILL.md', text: skillText('tagged') });
    expect(plain.skills.get('tagged')).toBeUndefined();

    const custom = await setup({ when: (call) => writesWorkspace(call) || call.tool.tags.has('skills-writer') });
    await custom.tools.execute('tagged_write', { path: 'tagged/SKILL.md', text: skillText('tagged') });
    expect(custom.skills.get('tagged')).toBeDefined();
  });

  it('logs a bad edit once, keeps the previous skill active and the tool result intact', async () => {
    const { skills, logger, tools } = await setup();
    const bad = await tools.execute('write_file', { path: 'existing/SKILL.md', text: '---\nname: existing\n---\nno description' });
    expect(bad).toEqual(ActionResult.success('wrote existing/SKILL.md'));
    expect(skills.get('existing')!.description).toContain('existing');
    expect(logger.messages).toHaveLength(1);
    expect(logger.messages[0]).toMatch(/^Skills were not refreshed after tool 'write_file'; the previous skills stay active\. Skill discovery failed/);
    expect(logger.messages[0]).toContain('(rule: description)');
    await tools.execute('write_file', { path: 'notes.txt', text: 'unrelated' });
    expect(logger.messages).toHaveLength(1);
    await tools.execute('write_file', { path: 'existing/SKILL.md', text: skillText('existing', { body: 'fixed' }) });
    expect(logger.messages).toHaveLength(1);
    expect(skills.revision).toBe(1);
  });

  it('is a no-op when the context holds no Skills', async () => {
    const root = tempDir();
    const logger = recordingLogger();
    const tools = agentTools(root, new SkillRefreshMiddleware({ logger }), new ToolContext());
    const result = await tools.execute('write_file', { path: 'x/SKILL.md', text: skillText('x') });
    expect(result.ok).toBe(true);
    expect(logger.messages).toEqual([]);
  });

  it('refreshes the registry of the per-call context, not one captured earlier', async () => {
    const { root, skills, tools } = await setup();
    const otherRoot = tempDir();
    const other = await Skills.fromLocalDir(otherRoot);
    writeSkill(otherRoot, 'elsewhere');
    await tools.execute('write_file', { path: 'notes.txt', text: 'x' }, { context: new ToolContext(other) });
    expect(other.get('elsewhere')).toBeDefined();
    writeSkill(root, 'late');
    expect(skills.get('late')).toBeUndefined();
  });

  it('logs non-Error failures and defaults to the console', async () => {
    const root = tempDir();
    const skills = await Skills.fromLocalDir(root);
    jest.spyOn(skills, 'refreshIfChanged').mockRejectedValue('stringly failure');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const tools = agentTools(root, new SkillRefreshMiddleware(), new ToolContext(skills));
      const result = await tools.execute('write_file', { path: 'a.txt', text: 'a' });
      expect(result.ok).toBe(true);
      expect(warn).toHaveBeenCalledWith("Skills were not refreshed after tool 'write_file'; the previous skills stay active. stringly failure");
    } finally {
      warn.mockRestore();
    }
  });
});
