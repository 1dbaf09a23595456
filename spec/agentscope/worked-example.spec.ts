// The worked example of docs/permissions.md, kept type-checked and running.
import { Type, type Static } from '@sinclair/typebox';
import {
  Action,
  FunctionTool,
  ToolEffect,
  Tools,
  runToolCalls,
  type BatchCall,
} from '../../lib';
import { PermissionEngine, PermissionMode, pathRule } from '../../lib/permissions';

const FilePath = Type.Object({ path: Type.String() });
const WriteInput = Type.Object({ path: Type.String(), text: Type.String() });

class Files {
  @Action('Read a file.', { params: FilePath, effects: [ToolEffect.READS_WORKSPACE], permissions: pathRule('path') })
  read({ path }: Static<typeof FilePath>): string {
    return `contents of ${path}`;
  }

  @Action('Write a file.', { params: WriteInput, effects: [ToolEffect.WRITES_WORKSPACE], permissions: pathRule('path'), requiresApproval: true })
  write({ path }: Static<typeof WriteInput>): string {
    return `wrote ${path}`;
  }
}

const deploy = new FunctionTool(({ env }: { env: string }) => `deployed to ${env}`, {
  name: 'deploy',
  description: 'Deploy the app.',
  params: Type.Object({ env: Type.String() }),
});

describe('docs/permissions.md worked example', () => {
  it('runs what it can, asks for the rest, and resumes after approval', async () => {
    const tools = new Tools().register(new Files(), deploy);
    const engine = new PermissionEngine({
      mode: PermissionMode.DEFAULT,
      settings: { allow: ['write(src/**)'], deny: ['write(**/.env*)'] },
      settingsSource: 'project',
    });

    // The model's turn: two reads, three writes, a deploy.
    const calls: BatchCall[] = [
      { id: 'c1', name: 'read', args: { path: 'src/a.ts' } },
      { id: 'c2', name: 'read', args: { path: 'src/b.ts' } },
      { id: 'c3', name: 'write', args: { path: 'src/a.ts', text: 'x' } },
      { id: 'c4', name: 'write', args: { path: '.env.local', text: 'SECRET=1' } },
      { id: 'c5', name: 'deploy', args: { env: 'staging' } },
      { id: 'c6', name: 'write', args: { path: 'docs/x.md', text: 'y' } },
    ];
    const first = await runToolCalls(tools, calls, { engine });
    // c1 and c2 ran together (read-only, concurrency-safe); c3 is allowed by rule; c4 is denied by rule.
    expect(first.ran.map((r) => [r.call.id, r.result.ok, r.decision?.reason.type])).toEqual([
      ['c1', true, 'read_only'],
      ['c2', true, 'read_only'],
      ['c3', true, 'rule'],
      ['c4', false, 'rule'],
    ]);
    // deploy is a wrapped function: it asks. Everything after it waits.
    const [ask, ...queued] = first.waiting;
    expect(ask!.reason === 'approval' && ask!.decision?.suggestions.map((s) => `${s.toolName}`)).toEqual(['deploy']);
    expect(queued.map((w) => w.reason)).toEqual(['queued']);

    // The user approves c5 once; the host resumes with the waiting calls.
    const second = await runToolCalls(tools, first.waiting.map((w) => w.call), { engine, approved: ask!.reason === 'approval' ? [ask!.approval] : [] });
    expect(second.ran.map((r) => r.result.result)).toEqual(['deployed to staging']);
    expect(second.waiting.map((w) => [w.call.id, w.reason])).toEqual([['c6', 'approval']]);

    // In dont-ask mode the same write is denied instead of asked.
    engine.setMode(PermissionMode.DONT_ASK);
    const third = await runToolCalls(tools, second.waiting.map((w) => w.call), { engine });
    expect(third.ran[0]!.result.error).toMatch(/^Permission denied for tool 'write': .*dont-ask mode never asks\. Do not retry/);
    expect(third.ran[0]!.result.error).not.toMatch(/declined|\.\.|\.\)/);
  });
});
