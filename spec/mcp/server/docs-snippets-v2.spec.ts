/**
 * The TypeScript snippets of the SDK v2 part of docs/providers/mcp.md, run as written (`agenttoolkit` imports mapped
 * to lib/) and driven by the SDK v2 `Client` on 2026-07-28.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { runSnippet } from '../../support/doc-snippets';
import type { McpHttpEndpoint } from '../../../lib/mcp';

const ROOT = join(__dirname, '../../..');
const doc = readFileSync(join(ROOT, 'docs/providers/mcp.md'), 'utf8');
const v2Part = doc.slice(doc.indexOf('## SDK v2'), doc.indexOf('## Server on SDK 1.x'));
const snippets = [...v2Part.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const ALIASES: Record<string, string> = { agenttoolkit: '../../../lib', 'agenttoolkit/mcp': '../../../lib/mcp', 'agenttoolkit/skills': '../../../lib/skills' };
const run = (source: string, log: string[] = []): Promise<Record<string, unknown>> => runSnippet(source, require, ALIASES, log);
const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.\n`;

describe('docs/providers/mcp.md SDK v2 snippets', () => {
  it('has the four snippets this spec runs', () => {
    expect(snippets).toHaveLength(4);
  });

  it('the authentication snippet refuses a request without a token and hands the verified principal to the tool', async () => {
    const log: string[] = [];
    await run(snippets[3]!, log);
    expect(log).toEqual(['401', JSON.stringify([{ type: 'text', text: 'ada' }])]);
  });

  it('the quick start serves the registry on 2026-07-28 and asks approval through input_required', async () => {
    const log: string[] = [];
    await run(snippets[0]!, log);
    expect(log.slice(0, 2)).toEqual(['modern', expect.stringContaining("Allow tool 'deploy' to run?")]);
    expect(log).toHaveLength(3);
  });

  it("the questions snippet asks the tool's question through input_required and the SDK client's loop answers it", async () => {
    const log: string[] = [];
    await run(snippets[2]!, log);
    expect(log).toEqual([expect.stringContaining('Hello, Ada!')]);
  });

  it('the skills snippet serves the registry through the skills extension and follows a refresh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp2-doc-skills-'));
    mkdirSync(join(dir, 'triage'));
    writeFileSync(join(dir, 'triage', 'SKILL.md'), skillMd('triage', 'Triage issues.'));
    expect(snippets[1]).toContain("'./skills'");
    const { endpoint, refreshSkills } = (await run(snippets[1]!.replace("'./skills'", JSON.stringify(dir)))) as { endpoint: McpHttpEndpoint; refreshSkills: () => Promise<void> };
    const client = new Client({ name: 'host', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    const fresh = new Client({ name: 'host', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      const skills = new SkillsClient(client);
      const listing = await skills.list();
      expect([listing.skills.map((skill) => skill.uri), listing.ttlMs, listing.cacheScope]).toEqual([['skill://triage/SKILL.md'], 60_000, 'public']);
      expect((await skills.read(listing.skills[0]!)).body?.trim()).toBe('Do triage.');
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['triage']);
      mkdirSync(join(dir, 'label'));
      writeFileSync(join(dir, 'label', 'SKILL.md'), skillMd('label', 'Label issues.'));
      await refreshSkills();
      // a new client: the first one may answer from its cache for the 60 s the listing allows
      await fresh.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      expect((await new SkillsClient(fresh).list()).skills.map((skill) => skill.frontmatter.name)).toEqual(['label', 'triage']);
    } finally {
      await fresh.close();
      await client.close();
      await endpoint.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
