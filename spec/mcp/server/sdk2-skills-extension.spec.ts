/** `mcpSkillsExtension`: a `Skills` registry served through SDK v2's skills extension, read by the SDK's `SkillsClient`. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { McpServer } from '@modelcontextprotocol/server';
import { Skills } from '../../../lib/skills';
import { mcpSkillsExtension, serveSkills, type McpSkillsExtension } from '../../../lib/mcp';

const skillMd = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe('mcpSkillsExtension on SDK v2', () => {
  let root: string;
  let outside: string;
  let warnings: string[];
  const clients: Client[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mcp2-skillx-'));
    outside = mkdtempSync(join(tmpdir(), 'mcp2-skillx-out-'));
    writeFileSync(join(outside, 'secret.txt'), 'outside the root');
    mkdirSync(join(root, 'hello', 'references'), { recursive: true });
    writeFileSync(join(root, 'hello', 'SKILL.md'), skillMd('hello', 'Say hello.', 'Say hello politely.'));
    writeFileSync(join(root, 'hello', 'references', 'guide.md'), '# Greetings\nWave first.\n');
    warnings = [];
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const connect = async (extension: McpSkillsExtension, withPrompts?: Skills) => {
    const server = new McpServer({ name: 'skills', version: '1' });
    extension.attach(server);
    if (withPrompts !== undefined) serveSkills(server, withPrompts);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'spec', version: '1' });
    await client.connect(b);
    clients.push(client);
    return { client, skills: new SkillsClient(client) };
  };
  const build = async (skills: Skills) => mcpSkillsExtension(skills, { onWarning: (w) => void warnings.push(`${w.path}: ${w.message}`) });

  it('lists each skill with its files, gets it, and reads its files verified, beside the prompts', async () => {
    const registry = await Skills.fromLocalDir(root);
    const { client, skills } = await connect(await build(registry), registry);
    expect(skills.supported).toBe(true);
    const { skills: entries } = await skills.list();
    expect(entries.map((entry) => [entry.uri, entry.frontmatter])).toEqual([['skill://hello/SKILL.md', { name: 'hello', description: 'Say hello.' }]]);
    const resources = entries[0]!.resources as { uri: string; size: number }[];
    expect(resources.map((r) => [r.uri, r.size])).toEqual([['skill://hello/SKILL.md', Buffer.byteLength(skillMd('hello', 'Say hello.', 'Say hello politely.'))], ['skill://hello/references/guide.md', 24]]);
    expect((await skills.get('skill://hello/SKILL.md')).skill.uri).toBe('skill://hello/SKILL.md');
    const manifest = await skills.read(entries[0]!);
    expect([manifest.verified, manifest.body?.trim()]).toEqual([true, 'Say hello politely.']);
    const guide = await skills.read(entries[0]!, 'references/guide.md');
    expect([guide.verified, guide.text]).toEqual([true, '# Greetings\nWave first.\n']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
  });

  it('follows the registry on reload: a new skill is listed and listChanged says so', async () => {
    const registry = await Skills.fromLocalDir(root);
    const extension = await build(registry);
    mkdirSync(join(root, 'bye'));
    writeFileSync(join(root, 'bye', 'SKILL.md'), skillMd('bye', 'Say goodbye.', 'Wave.'));
    await registry.refresh();
    const changes = await extension.reload();
    expect([changes.added, changes.listChanged]).toEqual([['skill://bye/SKILL.md'], true]);
    const { skills } = await connect(extension);
    expect((await skills.list()).skills.map((entry) => entry.frontmatter.name)).toEqual(['bye', 'hello']);
  });

  it('passes the prefix to the catalog, and a full listing walks pages of one skill', async () => {
    mkdirSync(join(root, 'bye'));
    writeFileSync(join(root, 'bye', 'SKILL.md'), skillMd('bye', 'Say goodbye.', 'Wave.'));
    const registry = await Skills.fromLocalDir(root);
    const { skills } = await connect(await mcpSkillsExtension(registry, { prefix: 'acme', pageSize: 1, cacheHint: { ttlMs: 60_000, cacheScope: 'public' }, onWarning: () => undefined }));
    expect((await skills.list()).skills.map((entry) => entry.uri)).toEqual(['skill://acme/bye/SKILL.md', 'skill://acme/hello/SKILL.md']);
  });

  it('leaves out, with a warning, a skill whose SKILL.md broke since discovery', async () => {
    mkdirSync(join(root, 'broken'));
    writeFileSync(join(root, 'broken', 'SKILL.md'), skillMd('broken', 'Fine at first.', 'Body.'));
    const registry = await Skills.fromLocalDir(root);
    writeFileSync(join(root, 'broken', 'SKILL.md'), '---\nname: other-name\ndescription: x\n---\nBody.\n');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { skills } = await connect(await mcpSkillsExtension(registry));
      expect((await skills.list()).skills.map((entry) => entry.frontmatter.name)).toEqual(['hello']);
      expect(warn.mock.calls.some(([line]) => String(line).startsWith('broken: left out:'))).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });

  it('serves a link to a file inside the root, and never one that leads out of it', async () => {
    writeFileSync(join(root, 'shared.md'), 'shared notes\n');
    symlinkSync(join(root, 'shared.md'), join(root, 'hello', 'shared.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'hello', 'secret.txt'));
    const registry = await Skills.fromLocalDir(root);
    const { skills } = await connect(await build(registry));
    const [entry] = (await skills.list()).skills;
    expect((entry!.resources as { uri: string }[]).map((r) => r.uri)).toEqual(['skill://hello/SKILL.md', 'skill://hello/references/guide.md', 'skill://hello/shared.md']);
    expect((await skills.read(entry!, 'shared.md')).text).toBe('shared notes\n');
    await expect(skills.read(entry!, 'secret.txt')).rejects.toBeInstanceOf(SkillVerificationError);
  });

  it('refuses a listed file swapped for a link out of the root after the catalog was built', async () => {
    const registry = await Skills.fromLocalDir(root);
    const { skills } = await connect(await build(registry));
    const [entry] = (await skills.list()).skills;
    rmSync(join(root, 'hello', 'references', 'guide.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'hello', 'references', 'guide.md'));
    const read = skills.read(entry!, 'references/guide.md');
    await expect(read).rejects.toThrow();
    await expect(read).rejects.not.toThrow(/outside the root/);
  });

  it('refuses a file of a skill the registry dropped since the catalog was built', async () => {
    const registry = await Skills.fromLocalDir(root);
    const { skills } = await connect(await build(registry));
    const [entry] = (await skills.list()).skills;
    rmSync(join(root, 'hello'), { recursive: true });
    await registry.refresh();
    await expect(skills.read(entry!, 'references/guide.md')).rejects.toThrow();
  });

  it('refuses a second skills extension on the same server', async () => {
    const registry = await Skills.fromLocalDir(root);
    const server = new McpServer({ name: 'skills', version: '1' });
    (await build(registry)).attach(server);
    await expect(build(registry).then((other) => other.attach(server))).rejects.toThrow();
  });
});
