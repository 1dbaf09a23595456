import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isCredentialPath, isCredentialPathResolved, type CredentialPathOptions } from '../files/credential-paths';
import { basename, type SimpleCommand } from './analyze-command';
import { parseWords } from './grammar/parse-words';
import { programGrammar } from './grammar/program-grammars';
import { isPlainTilde, type ShellWord } from './shell-word';

/**
 * The most entries a recursive read's folders are searched through for a credential path; past it the read counts
 * as one (fail closed).
 */
export const MAX_RECURSIVE_ENTRIES = 20_000;

/** What a recursive read goes through: the folders named, and whether it reads the working directory by default. */
interface RecursiveRead {
  readonly roots: readonly ShellWord[];
  readonly workingDirectory: boolean;
}

/** Long options of grep(1) and diff(1) that make them read whole folders. */
const RECURSIVE_OPTIONS: ReadonlySet<string> = new Set(['recursive', 'dereference-recursive']);

/**
 * How `command` reads folders recursively, or undefined when it does not: `grep -r`/`-R`/`-d recurse` (GNU grep
 * reads the working directory when given no file), `diff -r`, `rg` and `ag` (recursive by default, the working
 * directory when given no path; `ag -n` does not recurse), `git grep --untracked`/`--no-index` (files the index does
 * not list). Such a program reads every file under a folder without naming it: `grep -r sk- .` reads `./.env`.
 */
function recursiveRead(command: SimpleCommand): RecursiveRead | undefined {
  const words = command.views[command.views.length - 1]!;
  const program = command.program === undefined ? undefined : basename(command.program);
  if (program === 'git') {
    // Any `grep` word and any spelling of the options, abbreviations included (`git -C . grep --untr`): a word too many
    // only costs a walk.
    const untracked = words.some((w) => !w.literal || (w.text.length > 3 && '--untracked'.startsWith(w.text)) || (w.text.length > 5 && '--no-index'.startsWith(w.text)));
    return words.some((w) => w.text === 'grep') && untracked ? { roots: [], workingDirectory: true } : undefined;
  }
  const grammar = program === undefined ? undefined : programGrammar(program);
  if (grammar === undefined || !['grep', 'diff', 'rg', 'ag'].includes(grammar.name)) return undefined;
  const { items, dynamic } = parseWords(grammar, words.slice(1));
  const options = items.flatMap((i) => (i.kind === 'option' ? [i] : []));
  const roots = items.flatMap((i) => (i.kind === 'operand' && i.operand.kind === 'read' ? [i.word] : []));
  const recursive =
    grammar.name === 'rg' ||
    (grammar.name === 'ag' && !options.some((o) => o.option.long.includes('norecurse'))) ||
    dynamic.length > 0 ||
    options.some((o) => o.option.long.some((l) => RECURSIVE_OPTIONS.has(l)) || (o.option.long.includes('directories') && o.value?.text !== 'read' && o.value?.text !== 'skip'));
  if (!recursive) return undefined;
  return { roots, workingDirectory: grammar.name !== 'diff' && roots.length === 0 };
}

/**
 * The first credential path a recursive read of `command` reaches (`grep -r sk- .` and `rg sk-` in a folder that
 * holds `.env`; `grep -r x *` reaching `config/.env`), found by walking the folders it reads, links followed, up to
 * {@link MAX_RECURSIVE_ENTRIES} entries; undefined when none does or the command reads no folder recursively. A word
 * known only at run time is walked from its literal folder (`grep -r x src/*` walks `src`); the credential check
 * judges its other forms (a variable, a dot glob) on its own.
 */
export function recursiveCredentialRead(command: SimpleCommand, cwd: string, options: CredentialPathOptions = {}): string | undefined {
  const read = recursiveRead(command);
  if (read === undefined) return undefined;
  const folders = read.roots.map((w) => rootFolder(w, cwd));
  if (read.workingDirectory) folders.push(cwd);
  const walk = new Walk(cwd, options);
  for (const folder of folders) {
    const hit = walk.search(folder);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

function rootFolder(word: ShellWord, cwd: string): string {
  let text = word.text;
  if (isPlainTilde(word) && (text === '~' || text.startsWith('~/'))) text = `${homedir()}${text.slice(1)}`;
  if (!word.literal && !(isPlainTilde(word) && text.startsWith('/'))) {
    const segments = text.split('/');
    const pattern = segments.findIndex((s) => /[*?[\]\\$`{"']/.test(s));
    text = pattern < 0 ? text : segments.slice(0, pattern).join('/') || (text.startsWith('/') ? '/' : '.');
  }
  return isAbsolute(text) ? text : resolve(cwd, text);
}

/** A bounded walk of folders, shared by the roots of one command so that the bound holds for the command. */
class Walk {
  #entries = 0;
  readonly #seen = new Set<string>();

  constructor(
    private readonly cwd: string,
    private readonly options: CredentialPathOptions,
  ) {}

  /** The first credential path under `folder` (or `folder` itself), as the user would name it; undefined when none. */
  search(folder: string): string | undefined {
    if (isCredentialPathResolved(folder, this.cwd, this.options)) return this.#name(folder);
    const queue = [folder];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (!this.#isNewFolder(next)) continue;
      let entries: Dirent[];
      try {
        entries = readdirSync(next, { withFileTypes: true });
      } catch {
        continue; // a folder the program cannot read either
      }
      this.#entries += entries.length;
      if (this.#entries > MAX_RECURSIVE_ENTRIES) return `more than ${MAX_RECURSIVE_ENTRIES} files under ${this.#name(folder)}`;
      for (const entry of entries) {
        const path = join(next, entry.name);
        // Only a link needs resolving: any other entry is the path its name says.
        if (entry.isSymbolicLink() ? isCredentialPathResolved(path, this.cwd, this.options) : isCredentialPath(path, this.options)) return this.#name(path);
        if (entry.isDirectory() || entry.isSymbolicLink()) queue.push(path);
      }
    }
    return undefined;
  }

  #isNewFolder(path: string): boolean {
    try {
      if (!statSync(path).isDirectory()) return false;
      const real = realpathSync(path);
      if (this.#seen.has(real)) return false;
      this.#seen.add(real);
      return true;
    } catch {
      return false;
    }
  }

  #name(path: string): string {
    const inside = relative(this.cwd, path);
    return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
  }
}
