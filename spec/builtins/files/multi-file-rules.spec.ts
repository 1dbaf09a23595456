// A tool that reaches many files in one call (Grep, Glob) is judged on every file: a deny rule `Grep(secret/**)`
// is not walked around by a search from the root, a glob that narrows to the folder, or a link to it, on every
// backend and in every mode; an ask rule that may reach a searched file asks first.
import { AGENT_STATE, ToolContext, Tools } from '../../../lib';
import { PermissionBehavior, PermissionEngine, PermissionMode } from '../../../lib/permissions';
import { GlobTool, GrepTool, LEFT_OUT_NOTE } from '../../../lib/builtins';
import { GREP_BACKENDS, type Made } from './harness';

const SECRET = 'TOKEN_abc123';
const MODES = Object.values(PermissionMode);

describe.each(GREP_BACKENDS)('Grep and Glob on $name', (backend) => {
  let made: Made;
  let root: string;
  let engine: PermissionEngine;
  const source = { get context() { return engine.context; } };

  beforeEach(async () => {
    made = backend.make();
    root = (made.workspace as unknown as { root: string }).root;
    await made.shell(`mkdir -p secret/deep src docs && printf '${SECRET}\\n' > secret/key.txt && printf 'x ${SECRET}\\n' > secret/deep/k.ts && printf 'TOKEN_public\\n' > src/a.ts && printf 'TOKEN_doc\\n' > docs/b.md && ln -s secret public`);
  }, 120_000);
  afterEach(async () => made.dispose());

  function setup(settings: { deny?: string[]; ask?: string[]; allow?: string[] }, mode = PermissionMode.DEFAULT, withEngine = true) {
    engine = new PermissionEngine({ mode, settings, cwd: root, workingDirectories: [root] });
    const grep = new GrepTool({ workspace: made.workspace, ...made.grep, ...(withEngine ? { engine: source } : {}) });
    const glob = new GlobTool({ workspace: made.workspace, ...(withEngine ? { engine: source } : {}) });
    const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(grep, glob);
    return {
      async call(name: 'Grep' | 'Glob', args: Record<string, unknown>): Promise<{ behavior: PermissionBehavior; text: string }> {
        const decision = await engine.check(name === 'Grep' ? grep : glob, args);
        if (decision.behavior !== PermissionBehavior.ALLOW) return { behavior: decision.behavior, text: decision.message };
        const result = await tools.execute(name, args);
        return { behavior: decision.behavior, text: result.ok ? String(result.result) : `FAILED ${result.error}` };
      },
    };
  }

  const deny = { deny: ['Grep(secret/**)', 'Glob(secret/**)'] };

  it.each(MODES)('in %s mode, a search from the root, or narrowed to the folder by a glob, leaves the denied files out', async (mode) => {
    const { call } = setup(deny, mode);
    const searches: Array<Record<string, unknown>> = [
      { pattern: 'TOKEN' }, { pattern: 'TOKEN', output_mode: 'content' }, { pattern: 'TOKEN', output_mode: 'count' },
      { pattern: 'TOKEN', glob: 'secret/**' }, { pattern: 'TOKEN', glob: '**/*.ts', output_mode: 'content' },
      { pattern: 'TOKEN', glob: '{secret,src}/**', output_mode: 'content', context: 2 }, { pattern: 'abc', path: '.' },
    ];
    for (const args of searches) {
      const { behavior, text } = await call('Grep', args);
      expect([args, behavior]).toEqual([args, PermissionBehavior.ALLOW]);
      expect([args, text]).toEqual([args, expect.stringContaining(LEFT_OUT_NOTE)]);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('key.txt');
      expect(text).not.toContain('secret/');
    }
    const wide = await call('Grep', { pattern: 'TOKEN', output_mode: 'content' });
    expect(wide.text).toContain('src/a.ts');
    expect(wide.text).toContain('TOKEN_doc');
    for (const pattern of ['**/*', 'secret/**', '**/*.txt', 'secret/*', '*/key.t?t', '{src,secret}/**/*', 's*/**']) {
      const { behavior, text } = await call('Glob', { pattern });
      expect([pattern, behavior]).toEqual([pattern, PermissionBehavior.ALLOW]);
      expect([pattern, text]).toEqual([pattern, expect.stringContaining(LEFT_OUT_NOTE)]);
      expect(text).not.toContain('key.txt');
      expect(text).not.toContain('k.ts');
    }
    expect((await call('Glob', { pattern: '**/*' })).text).toContain('src/a.ts');
  }, 120_000);

  it('a search inside the denied folder, or through a link to it, is denied or finds nothing of it', async () => {
    const { call } = setup(deny);
    for (const args of [{ pattern: 'TOKEN', path: 'secret' }, { pattern: 'TOKEN', path: 'secret/deep' }, { pattern: 'TOKEN', path: './secret/../secret' }]) {
      expect([args, (await call('Grep', args)).behavior]).toEqual([args, PermissionBehavior.DENY]);
    }
    expect((await call('Glob', { pattern: '*', path: 'secret' })).behavior).toBe(PermissionBehavior.DENY);
    for (const args of [{ pattern: 'TOKEN', path: 'public' }, { pattern: 'TOKEN', path: 'public', output_mode: 'content' }]) {
      const { behavior, text } = await call('Grep', args);
      if (behavior === PermissionBehavior.ALLOW) expect(text).not.toContain(SECRET);
      else expect(behavior).toBe(PermissionBehavior.DENY);
    }
    const linked = await call('Glob', { pattern: '**', path: 'public' });
    if (linked.behavior === PermissionBehavior.ALLOW) expect(linked.text).not.toContain('key.txt');
  }, 120_000);

  it('a search that no deny rule reaches is untouched and has no note', async () => {
    const { call } = setup(deny);
    const { text } = await call('Grep', { pattern: 'TOKEN', path: 'src', output_mode: 'content' });
    expect(text).toContain('TOKEN_public');
    expect(text).not.toContain(LEFT_OUT_NOTE);
    expect((await call('Glob', { pattern: '*.md', path: 'docs' })).text).not.toContain(LEFT_OUT_NOTE);
  }, 120_000);

  it('without the engine the tools cannot leave files out, so a deny rule that may reach a searched file denies the call', async () => {
    const { call } = setup(deny, PermissionMode.BYPASS, false);
    for (const args of [{ pattern: 'TOKEN' }, { pattern: 'TOKEN', glob: 'secret/**' }]) {
      expect([args, (await call('Grep', args)).behavior]).toEqual([args, PermissionBehavior.DENY]);
    }
    expect((await call('Glob', { pattern: '**/*' })).behavior).toBe(PermissionBehavior.DENY);
    expect((await call('Grep', { pattern: 'TOKEN', path: 'src' })).behavior).toBe(PermissionBehavior.ALLOW);
  }, 120_000);

  it('an ask rule that may reach a searched file asks before the search runs', async () => {
    const { call } = setup({ ask: ['Grep(secret/**)', 'Glob(**/*.txt)'] });
    expect((await call('Grep', { pattern: 'TOKEN' })).behavior).toBe(PermissionBehavior.ASK);
    expect((await call('Grep', { pattern: 'TOKEN', glob: 'secret/*' })).behavior).toBe(PermissionBehavior.ASK);
    expect((await call('Grep', { pattern: 'TOKEN', path: 'src' })).behavior).toBe(PermissionBehavior.ALLOW);
    expect((await call('Glob', { pattern: '**/*' })).behavior).toBe(PermissionBehavior.ASK);
  }, 120_000);
});
