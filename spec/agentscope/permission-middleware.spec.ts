import { Type } from '@sinclair/typebox';
import { FunctionTool, Tools } from '../../lib';
import { PermissionDecision, PermissionEngine, PermissionMiddleware, PermissionMode } from '../../lib/permissions';

const Path = Type.Object({ path: Type.String() });

function registry(engine: PermissionEngine, ask?: (name: string) => boolean): Tools {
  const touch = new FunctionTool(({ path }: { path: string }) => `touched ${path}`, {
    name: 'touch',
    description: 'd',
    params: Path,
    permissions: {
      checkPermissions: ({ path }) =>
        path.startsWith('./') ? PermissionDecision.allow('normalised', { updatedInput: { path: path.slice(2) } }) : path === 'bad' ? PermissionDecision.allow('broken', { updatedInput: { path: 3 } }) : PermissionDecision.ask('confirm'),
    },
  });
  const middleware = new PermissionMiddleware(engine, ask ? { ask: (call) => ask(call.name) } : {});
  return new Tools({ middleware: [middleware] }).register(touch);
}

describe('PermissionMiddleware', () => {
  it('runs allowed calls with the updated input, validated again', async () => {
    const tools = registry(new PermissionEngine());
    expect((await tools.execute('touch', { path: './a' })).result).toBe('touched a');
    expect((await tools.execute('touch', { path: 'bad' })).error).toMatch(/path/);
  });

  it('asks through the host and fails the call when nobody approves', async () => {
    const asked: string[] = [];
    const yes = registry(new PermissionEngine(), (name) => (asked.push(name), true));
    expect((await yes.execute('touch', { path: 'a' })).result).toBe('touched a');
    expect(asked).toEqual(['touch']);
    const no = registry(new PermissionEngine(), () => false);
    // A person said no: the user declined. Nobody to ask: not run, needs approval. Never "permission denied".
    expect((await no.execute('touch', { path: 'a' })).error).toBe("The user declined to run tool 'touch'. Do not retry it unchanged; ask the user or take another approach.");
    expect((await registry(new PermissionEngine()).execute('touch', { path: 'a' })).error).toBe(
      "Tool 'touch' was not run: it needs approval and no approval step is configured (confirm). Ask the user or take another approach.",
    );
  });

  it('fails denied calls with the reason', async () => {
    const tools = registry(new PermissionEngine({ mode: PermissionMode.EXPLORE }));
    expect((await tools.execute('touch', { path: 'a' })).error).toMatch(/^Permission denied for tool 'touch': touch may change things, and explore mode is read-only\./);
  });
});
