#!/usr/bin/env node
// Builds bench/data/tool-search/tools.json and sources.json: the tool lists of public MCP servers from npm, listed
// through the MCP SDK's client over stdio, as the fixed corpus of the tool-search retrieval benchmark.
//
// The servers are installed OUTSIDE the project (they are data sources, not dependencies):
//   npm i --prefix /tmp/mcp-servers --ignore-scripts <the packages of SERVERS below>
//   node scripts/build-tool-search-data.mjs /tmp/mcp-servers
// Servers that need credentials get placeholder values: listing tools makes no call to the service.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const prefix = process.argv[2] ?? '/tmp/mcp-servers';
const scratch = mkdtempSync(join(tmpdir(), 'tool-search-data-'));
const placeholder = 'placeholder-not-a-real-credential';

/** Each server: its npm package, the bin to start, arguments, environment. `server` is the short name used as group. */
const SERVERS = [
  { server: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem', bin: 'mcp-server-filesystem', args: [scratch] },
  { server: 'memory', pkg: '@modelcontextprotocol/server-memory', bin: 'mcp-server-memory' },
  { server: 'everything', pkg: '@modelcontextprotocol/server-everything', bin: 'mcp-server-everything', args: ['stdio'] },
  { server: 'github', pkg: '@modelcontextprotocol/server-github', bin: 'mcp-server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: placeholder } },
  { server: 'slack', pkg: '@modelcontextprotocol/server-slack', bin: 'mcp-server-slack', env: { SLACK_BOT_TOKEN: placeholder, SLACK_TEAM_ID: 'T00000000' } },
  { server: 'gitlab', pkg: '@modelcontextprotocol/server-gitlab', bin: 'mcp-server-gitlab', env: { GITLAB_PERSONAL_ACCESS_TOKEN: placeholder } },
  { server: 'postgres', pkg: '@modelcontextprotocol/server-postgres', bin: 'mcp-server-postgres', args: ['postgresql://127.0.0.1:1/none'] },
  { server: 'puppeteer', pkg: '@modelcontextprotocol/server-puppeteer', bin: 'mcp-server-puppeteer' },
  { server: 'brave_search', pkg: '@modelcontextprotocol/server-brave-search', bin: 'mcp-server-brave-search', env: { BRAVE_API_KEY: placeholder } },
  { server: 'google_maps', pkg: '@modelcontextprotocol/server-google-maps', bin: 'mcp-server-google-maps', env: { GOOGLE_MAPS_API_KEY: placeholder } },
  { server: 'sequential_thinking', pkg: '@modelcontextprotocol/server-sequential-thinking', bin: 'mcp-server-sequential-thinking' },
  { server: 'playwright', pkg: '@playwright/mcp', bin: 'playwright-mcp', args: ['--caps=vision,pdf,testing,tracing'] },
  { server: 'notion', pkg: '@notionhq/notion-mcp-server', bin: 'notion-mcp-server', env: { NOTION_TOKEN: placeholder } },
  { server: 'firecrawl', pkg: 'firecrawl-mcp', bin: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: 'fc-' + placeholder } },
  { server: 'context7', pkg: '@upstash/context7-mcp', bin: 'context7-mcp' },
  { server: 'kubernetes', pkg: 'mcp-server-kubernetes', bin: 'mcp-server-kubernetes' },
  { server: 'gitlab_full', pkg: '@zereight/mcp-gitlab', bin: 'mcp-gitlab', env: { GITLAB_PERSONAL_ACCESS_TOKEN: placeholder, USE_PIPELINE: 'true', USE_MILESTONE: 'true', USE_GITLAB_WIKI: 'true' } },
  { server: 'azure_devops', pkg: '@azure-devops/mcp', bin: 'mcp-server-azuredevops', args: ['example-org'] },
  { server: 'google_workspace', pkg: '@a-bonus/google-docs-mcp', bin: 'google-docs-mcp' },
  { server: 'supabase', pkg: '@supabase/mcp-server-supabase', bin: 'mcp-server-supabase', args: ['--access-token', placeholder] },
  { server: 'desktop_commander', pkg: '@wonderwhy-er/desktop-commander', bin: 'desktop-commander' },
  { server: 'git', pkg: '@cyanheads/git-mcp-server', bin: 'git-mcp-server' },
  { server: 'mongodb', pkg: 'mongodb-mcp-server', bin: 'mongodb-mcp-server' },
  { server: 'chart', pkg: '@antv/mcp-server-chart', bin: 'mcp-server-chart' },
  { server: 'stripe', pkg: '@stripe/mcp', bin: '../@stripe/mcp/dist/index.js', args: ['--tools=all', '--api-key=sk_test_' + placeholder] },
  { server: 'heroku', pkg: '@heroku/mcp-server', bin: 'heroku-mcp-server', env: { HEROKU_API_KEY: placeholder } },
  { server: 'circleci', pkg: '@circleci/mcp-server-circleci', bin: 'mcp-server-circleci', env: { CIRCLECI_TOKEN: placeholder } },
  { server: 'redis', pkg: '@modelcontextprotocol/server-redis', bin: 'mcp-server-redis', args: ['redis://127.0.0.1:1'] },
  { server: 'mysql', pkg: '@benborla29/mcp-server-mysql', bin: 'mcp-server-mysql' },
  { server: 'tavily', pkg: 'tavily-mcp', bin: 'tavily-mcp', env: { TAVILY_API_KEY: placeholder } },
  { server: 'brave', pkg: '@brave/brave-search-mcp-server', bin: 'brave-search-mcp-server', env: { BRAVE_API_KEY: placeholder } },
  { server: 'linear', pkg: '@tacticlaunch/mcp-linear', bin: 'mcp-linear', env: { LINEAR_API_TOKEN: placeholder } },
  { server: 'jira', pkg: '@aashari/mcp-server-atlassian-jira', bin: 'mcp-atlassian-jira', env: { ATLASSIAN_SITE_NAME: 'example', ATLASSIAN_USER_EMAIL: 'a@example.com', ATLASSIAN_API_TOKEN: placeholder } },
];

async function list(spec) {
  const transport = new StdioClientTransport({
    command: join(prefix, 'node_modules/.bin', spec.bin),
    args: spec.args ?? [],
    env: { PATH: process.env.PATH, HOME: scratch, ...(spec.env ?? {}) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tool-search-data', version: '1' });
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no answer in 30 s')), 30_000)));
  try {
    await Promise.race([client.connect(transport), timeout]);
  } finally {
    clearTimeout(timer);
  }
  try {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}

const tools = [];
const sources = [];
for (const spec of SERVERS) {
  const pkg = JSON.parse(readFileSync(join(prefix, 'node_modules', spec.pkg, 'package.json'), 'utf8'));
  // Only data whose package states a licence is kept.
  if (typeof pkg.license !== 'string') {
    console.error(`${spec.server}: skipped (no licence in package.json)`);
    continue;
  }
  try {
    const listed = await list(spec);
    for (const tool of listed) {
      tools.push({ server: spec.server, name: `${spec.server}__${tool.name}`, description: tool.description ?? '', inputSchema: tool.inputSchema ?? { type: 'object', properties: {} } });
    }
    const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    sources.push({ server: spec.server, package: spec.pkg, version: pkg.version, license: pkg.license, repository, tools: listed.length });
    console.error(`${spec.server}: ${listed.length} tools (${spec.pkg}@${pkg.version}, ${pkg.license})`);
  } catch (error) {
    console.error(`${spec.server}: skipped (${error.message})`);
  }
}
const out = new URL('../bench/data/tool-search/', import.meta.url);
writeFileSync(new URL('tools.json', out), JSON.stringify(tools, null, 1) + '\n');
writeFileSync(new URL('sources.json', out), JSON.stringify(sources, null, 2) + '\n');
console.error(`${tools.length} tools from ${sources.length} servers`);
process.exit(0);
