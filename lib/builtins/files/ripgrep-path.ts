import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import { BuiltinToolError } from './errors';

let found: string | undefined;

/**
 * The absolute path of the ripgrep binary that `@vscode/ripgrep` ships (its `rgPath`), resolved once on first use.
 * Resolved the way that package computes `rgPath` (its platform package `@vscode/ripgrep-<platform>-<arch>`,
 * `bin/rg`), without running the package's ES module, so it also works where CommonJS cannot load ES modules.
 *
 * @throws BuiltinToolError `RIPGREP_NOT_FOUND` when `@vscode/ripgrep` (an optional peer dependency) or its platform
 *   package is not installed.
 */
export function ripgrepPath(): string {
  if (found !== undefined) return found;
  const platformPackage = `@vscode/ripgrep-${process.platform}-${process.arch}`;
  let main: string;
  try {
    main = require.resolve('@vscode/ripgrep');
  } catch (error) {
    throw new BuiltinToolError('RIPGREP_NOT_FOUND',
      "Grep needs ripgrep: install the optional peer dependency '@vscode/ripgrep' (1.18 or later), or pass { rgPath: '/abs/path/to/rg' }.", { cause: error });
  }
  try {
    found = createRequire(main).resolve(`${platformPackage}/bin/${process.platform === 'win32' ? 'rg.exe' : 'rg'}`);
  } catch (error) {
    throw new BuiltinToolError('RIPGREP_NOT_FOUND',
      `Grep needs ripgrep: '@vscode/ripgrep' is installed but its binary package '${platformPackage}' is not (install without --no-optional, or pass { rgPath }).`, { cause: error });
  }
  return found;
}

/** Checks a ripgrep path given as an option: absolute, no NUL byte. */
export function checkRipgrepOption(path: string | undefined): string | undefined {
  if (path !== undefined && (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0'))) {
    throw new BuiltinToolError('INVALID_BUILTIN_OPTION', `Grep's rgPath must be an absolute path to the ripgrep binary; got ${JSON.stringify(String(path))}.`);
  }
  return path;
}
