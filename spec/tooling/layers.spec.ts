import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The layer and cycle rules of `npm run lint` (.dependency-cruiser.cjs), run on small trees shaped like lib/.
const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** A clean tree: errors, the low layer, a core module, a provider, a port and an entry point. */
const BASE: Record<string, string> = {
  'lib/errors.ts': 'export class AgentToolkitError extends Error {}\n',
  'lib/text/cut-text.ts': "import { AgentToolkitError } from '../errors';\nexport const cut = (s: string) => (s ? s : String(AgentToolkitError));\n",
  'lib/tools.ts': "import { cut } from './text/cut-text';\nexport class Tools { name = cut('x'); }\n",
  'lib/tool/tool.ts': "export class Tool { name = 'x'; }\n",
  'lib/providers/openai.ts': "import type { Tool } from '../tool/tool';\nexport const render = (t: Tool) => t.name;\n",
  'lib/sandbox/policy.ts': "import { AgentToolkitError } from '../errors';\nimport { cut } from '../text/cut-text';\nexport const p = [AgentToolkitError, cut];\n",
  'lib/builtins/shell/rule.ts': "import type { Tool } from '../../tool/tool';\nimport { p } from '../../sandbox/policy';\nimport { cut } from '../../text/cut-text';\nexport const r = (t: Tool) => [t, p, cut];\n",
  'lib/index.ts': "export { Tools } from './tools';\n",
};

function cruise(extra: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true }, include: ['lib'] }));
    for (const [path, text] of Object.entries({ ...BASE, ...extra })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const out = spawnSync(DEPCRUISE, ['lib', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
    return { status: out.status, output: out.stdout + out.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('npm run lint enforces the layers of docs/architecture.md and forbids cycles', () => {
  it('passes a tree that follows the layers', () => {
    const { status, output } = cruise({});
    expect(output).toContain('no dependency violations');
    expect(status).toBe(0);
  });

  // One tree holding every violation (one cruise takes about two seconds): each must be reported by its rule.
  const violations: Array<[string, string, string, Record<string, string>]> = [
    ['a port importing the core registry', 'sandbox-port', 'lib/sandbox/uses-tools.ts', { 'lib/sandbox/uses-tools.ts': "import type { Tools } from '../tools';\nexport type T = Tools;\n" }],
    ['a nested adapter reaching the registry', 'sandbox-port', 'lib/sandbox/docker/d.ts', { 'lib/sandbox/docker/d.ts': "import { Tools } from '../../tools';\nexport const d = Tools;\n" }],
    ['a port importing another port', 'sandbox-port', 'lib/sandbox/s.ts', { 'lib/workspace/w.ts': 'export const w = 1;\n', 'lib/sandbox/s.ts': "import { w } from '../workspace/w';\nexport const s = w;\n" }],
    ['a port importing its adapter', 'port-without-adapter', 'lib/sandbox/sandbox.ts', { 'lib/sandbox/sandbox.ts': "import { d } from './docker/d';\nexport const s = d;\n" }],
    ['the core importing a provider, type only', 'core-independent', 'lib/tool/format.ts', { 'lib/tool/format.ts': "import type { render } from '../providers/openai';\nexport type R = typeof render;\n" }],
    ['the low layer importing the core', 'low-layer', 'lib/text/bad.ts', { 'lib/text/bad.ts': "import type { Tool } from '../tool/tool';\nexport type T = Tool;\n" }],
    ['a provider importing a port', 'providers-core-only', 'lib/providers/bad.ts', { 'lib/providers/bad.ts': "import { p } from '../sandbox/policy';\nexport const b = p;\n" }],
    ['the core importing a built-in tool', 'core-independent', 'lib/tool/uses-builtin.ts', { 'lib/tool/uses-builtin.ts': "import { r } from '../builtins/shell/rule';\nexport const u = r;\n" }],
    ['a built-in tool importing a provider', 'builtins-layer', 'lib/builtins/bad.ts', { 'lib/builtins/bad.ts': "import { render } from '../providers/openai';\nexport const b = render;\n" }],
    ['a module importing an entry point', 'entry-points-unimported', 'lib/tool/bad.ts', { 'lib/tool/bad.ts': "import { Tools } from '../index';\nexport const b = Tools;\n" }],
    [
      'a cycle closed by `import type` only',
      'no-cycle',
      'lib/tool/a.ts',
      {
        'lib/tool/a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
        'lib/tool/b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
      },
    ],
  ];
  let report: { status: number | null; output: string };
  beforeAll(() => {
    report = cruise(Object.assign({}, ...violations.map((v) => v[3])) as Record<string, string>);
  });

  it('fails the lint step', () => {
    expect(report.status).not.toBe(0);
  });

  it.each(violations)('refuses %s (%s)', (_name, rule, from) => {
    // depcruise's err output: `  error <rule>: <from> → <to>`.
    expect(report.output).toContain(`error ${rule}: ${from} `);
  });
});
