/** Skills served as MCP prompts, read by the SDK's Client over InMemoryTransport. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Skills } from '../../../lib/skills';
import { McpServerError, serveSkills } from '../../../lib/mcp';

function writeSkill(root: string, name: string, description: string, body: string, files: string[] = []): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
  for (const file of files) writeFileSync(join(root, name, file), 'x');
}

describe('serveSkills: skills as MCP prompts', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mcp-skills-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lists each skill as a prompt, answers prompts/get with its instructions and resources, and follows refreshes', async () => {
    writeSkill(root, 'pdf-forms', 'Fill PDF forms.', '# PDF forms\nUse the form tool.', ['fill.py']);
    writeSkill(root, 'release-notes', 'Write release notes.', 'Group changes by kind.');
    const skills = await Skills.fromLocalDir(root);
    const server = new McpServer({ name: 'skills', version: '1' });
    const prompts = serveSkills(server, skills);
    const client = new Client({ name: 't', version: '1' });
    const changed = jest.fn();
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => changed());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);

    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'pdf-forms', description: 'Fill PDF forms.' },
      { name: 'release-notes', description: 'Write release notes.' },
    ]);
    const pdf = await client.getPrompt({ name: 'pdf-forms' });
    expect(pdf.description).toBe('Fill PDF forms.');
    expect(pdf.messages).toEqual([{ role: 'user', content: { type: 'text', text: `# PDF forms\nUse the form tool.\n\nResource files of this skill (relative to ${join(skills.get('pdf-forms')!.directory)}):\n- fill.py` } }]);
    expect((await client.getPrompt({ name: 'release-notes' })).messages[0]!.content).toEqual({ type: 'text', text: 'Group changes by kind.' });

    writeSkill(root, 'release-notes', 'Write release notes for users.', 'Edited.');
    rmSync(join(root, 'pdf-forms'), { recursive: true });
    writeSkill(root, 'triage', 'Triage issues.', 'Label first.');
    await skills.refresh();
    prompts.sync();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changed).toHaveBeenCalled();
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'release-notes', description: 'Write release notes for users.' },
      { name: 'triage', description: 'Triage issues.' },
    ]);
    await expect(client.getPrompt({ name: 'pdf-forms' })).rejects.toThrow();

    prompts.close();
    expect((await client.listPrompts()).prompts).toEqual([]);
    await client.close();
  });

  it('refuses a skill whose name a native prompt has', async () => {
    writeSkill(root, 'triage', 'Triage issues.', 'Label first.');
    const server = new McpServer({ name: 'skills', version: '1' });
    server.registerPrompt('triage', { description: 'native' }, () => ({ messages: [] }));
    const skills = await Skills.fromLocalDir(root);
    expect(() => serveSkills(server, skills)).toThrow(McpServerError);
  });
});
