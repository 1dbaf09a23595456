import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'check-internal-refs.js');

function run(lines: string[]): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'refs-'));
  try {
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'sample.ts'), lines.map((l) => ` * ${l}`).join('\n'));
    const out = spawnSync(process.execPath, [SCRIPT, join(dir, 'lib')], { encoding: 'utf8' });
    return { status: out.status, stderr: out.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('npm run lint refuses citations of internal material in shipped text', () => {
  it.each([
    '(seed 004: `ToolChunk`)',
    'The seed-004 attributes of a tool',
    'A step of the pipeline (seed: "Middleware").',
    "Follows the seed's BubblewrapSandbox.",
    'Default 10 MiB, as in the seed.',
    'Default true (seed).',
    'see seeds/004_notes.txt',
    'Behaviour from `000_29b13d9962e49c03.txt`',
    'and `004_0ee7e9687952b4bc`',
    'as semantics.md says',
    '(reference semantics section 5)',
    'Reference semantics §4',
    'anything inside them is dangerous (section 5).',
    'copied from ../shared/reference',
  ])('flags %p', (line) => {
    const { status, stderr } = run([line]);
    expect(status).toBe(1);
    expect(stderr).toContain('sample.ts:1:');
    expect(stderr).toContain('1 reference(s) to internal material');
  });

  it('passes ordinary words and public citations', () => {
    const { status, stderr } = run([
      'a seeded random generator gives stable shuffles',
      'seeding the cache at start',
      'RFC 9110 section 5.1 defines field names; see section 5 of RFC 8259',
      'Repeat the shared fields in every branch; shared by workspace and skills',
      'the seedling list',
      'mount(2) and the bwrap(1) man page',
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it('reports every finding with its file and line', () => {
    const { status, stderr } = run(['clean line', '(seed 004)', 'clean', 'reference semantics']);
    expect(status).toBe(1);
    expect(stderr).toMatch(/sample\.ts:2: design seed/);
    expect(stderr).toMatch(/sample\.ts:4: internal semantics document/);
  });
});
