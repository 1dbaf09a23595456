// Every built-in tool of this folder is a Tool like any other: listed in every provider format.
import { AGENT_STATE, ToolContext, ToolSchemaFormat, Tools } from '../../lib';
import { LocalWorkspace } from '../../lib/workspace';
import { fileTools } from '../../lib/builtins';
import { taskTools } from '../../lib/builtins';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('built-in tools in every provider format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'builtins-schema-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files = fileTools({ workspace: new LocalWorkspace(dir) });
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) })
    .register(files.read, files.write, files.edit, files.glob, ...taskTools());
  const names = ['Read', 'Write', 'Edit', 'Glob', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate'];

  it.each(Object.keys(ToolSchemaFormat))('%s', (format) => {
    const entries = tools.getSchema(ToolSchemaFormat[format as keyof typeof ToolSchemaFormat]);
    expect(entries).toHaveLength(names.length);
    expect(JSON.stringify(entries)).toEqual(expect.stringContaining('"Read"'));
    for (const name of names) expect(JSON.stringify(entries)).toContain(`"${name}"`);
  });

  it('OpenAI strict mode gets closed objects with every key required', () => {
    const entries = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT) as unknown as Array<{ function: { name: string; strict: boolean; parameters: { required: string[]; additionalProperties: boolean } } }>;
    const read = entries.find((e) => e.function.name === 'Read')!;
    expect(read.function.strict).toBe(true);
    expect(read.function.parameters.required).toEqual(['file_path', 'offset', 'limit']);
    expect(read.function.parameters.additionalProperties).toBe(false);
  });

  it('read-only traits are what MCP annotations advertise', () => {
    const entries = tools.getSchema(ToolSchemaFormat.MCP) as unknown as Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>;
    const hint = Object.fromEntries(entries.map((e) => [e.name, e.annotations?.readOnlyHint]));
    expect(hint.Read).toBe(true);
    expect(hint.Glob).toBe(true);
    expect(hint.Write).not.toBe(true);
    expect(hint.Edit).not.toBe(true);
  });
});
