/** `serveSkills` on an SDK v2 `McpServer`, read by the SDK v2 `Client` over the v2 `InMemoryTransport`. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { Skills } from '../../../lib/skills';
import { serveSkills } from '../../../lib/mcp';

describe('serveSkills on SDK v2', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'mcp2-skills-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lists each skill as a prompt, answers prompts/get with its instructions, and follows a sync', async () => {
    mkdirSync(join(root, 'hello'));
    writeFileSync(join(root, 'hello', 'SKILL.md'), '---\nname: hello\ndescription: Say hello.\n---\nSay hello politely.\n');
    const skills = await Skills.fromLocalDir(root);
    const server = new McpServer({ name: 'skills', version: '1' });
    const prompts = serveSkills(server, skills);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'spec', version: '1' });
    await client.connect(b);
    try {
      expect((await client.listPrompts()).prompts.map((p) => [p.name, p.description])).toEqual([['hello', 'Say hello.']]);
      expect((await client.getPrompt({ name: 'hello' })).messages[0]!.content).toEqual({ type: 'text', text: 'Say hello politely.' });
      rmSync(join(root, 'hello'), { recursive: true });
      await skills.refresh();
      prompts.sync();
      expect((await client.listPrompts()).prompts).toEqual([]);
    } finally {
      prompts.close();
      await client.close();
    }
  });
});
