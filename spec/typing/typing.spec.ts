/**
 * Compiles the type tests in spec/typing (public-api.types.ts) against the library's emitted declarations, as a
 * user's project sees them, under `strict` and `exactOptionalPropertyTypes`, with TypeBox 1.x and 0.34, zod, ArkType
 * and valibot. Each `@ts-expect-error` there must meet its error, so a check that stops rejecting fails too.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeSnippetFiles } from './doc-snippets';

const root = join(__dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function compile(args: string[]): string {
  try {
    execFileSync(process.execPath, [tsc, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the public types', () => {
  beforeAll(() => {
    rmSync(join(root, 'build', 'typing-dts'), { recursive: true, force: true });
    expect(compile(['-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--outDir', 'build/typing-dts'])).toBe('');
  }, 120_000);

  it('compile under strict and exactOptionalPropertyTypes with every schema library', () => {
    expect(compile(['-p', 'spec/typing/tsconfig.json'])).toBe('');
  }, 120_000);

  it('the TypeScript snippets of docs/tools.md and docs/providers/*.md compile against them', () => {
    const files = writeSnippetFiles(join(root, 'build', 'doc-snippets'));
    expect(files.length).toBeGreaterThanOrEqual(9);
    expect(compile(['-p', 'build/doc-snippets/tsconfig.json'])).toBe('');
  }, 120_000);
});
