// The built-in tools' input schemas, and what every provider format makes of them, compared byte for byte with a
// snapshot committed while the schemas were still built with TypeBox: moving them to plain JSON Schema objects
// changed nothing a model or a validator sees. Regenerate only on purpose: UPDATE_SCHEMA_SNAPSHOT=1.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_STATE, ToolContext, ToolSchemaFormat, Tools } from '../../lib';
import { BashInput, bashTool, EditInput, fileTools, GlobInput, GrepInput, ReadInput, TaskCreateInput, TaskGetInput, TaskListInput, TaskUpdateInput, taskTools, WriteInput } from '../../lib/builtins';
import { SandboxPolicy, UnsafeLocalSandbox } from '../../lib/sandbox';
import { LocalWorkspace } from '../../lib/workspace';

const SNAPSHOT = join(__dirname, 'fixtures', 'schemas-before-plain-json.json');

function current(): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'builtins-schema-snapshot-'));
  try {
    const files = fileTools({ workspace: new LocalWorkspace(dir) });
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) })
      .register(files.read, files.write, files.edit, files.glob, files.grep, bashTool({ sandbox: new UnsafeLocalSandbox(new SandboxPolicy()) }), ...taskTools());
    const inputs = { ReadInput, WriteInput, EditInput, GlobInput, GrepInput, BashInput, TaskCreateInput, TaskGetInput, TaskListInput, TaskUpdateInput };
    return {
      inputs: Object.fromEntries(Object.entries(inputs).map(([name, schema]) => [name, JSON.stringify(schema)])),
      formats: Object.fromEntries(Object.keys(ToolSchemaFormat).map((format) => [format, JSON.stringify(tools.getSchema(ToolSchemaFormat[format as keyof typeof ToolSchemaFormat]))])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('built-in schemas', () => {
  it('are byte-identical to the snapshot, raw and in every provider format', () => {
    const now = current();
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') writeFileSync(SNAPSHOT, `${JSON.stringify(now, null, 2)}\n`);
    expect(now).toEqual(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  });
});
