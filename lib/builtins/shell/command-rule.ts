import { PermissionBehavior } from '../../permissions/permission-behavior';
import type { PermissionContext } from '../../permissions/permission-context';
import { permissionRule, type PermissionRule, type RuleBehavior } from '../../permissions/permission-rule';
import type { RuleHooks } from '../../permissions/rule-matchers';
import { analyzeCommand, analyzeCommandSync, basename, type ShellAnalysis, type ShellDialect, type ShellFeature, type SimpleCommand } from './analyze-command';
import { loadBashParser, loadedBashParser, type BashParser } from './bash-parser';
import { parseBash, type SyntaxNode } from './syntax-tree';
import { ShellAnalysisError } from './shell-error';
import { isPlainTilde, literalWord, type ShellWord } from './shell-word';
import { wordOf } from './word-of';
import { gitAliasAt, gitAliasView } from './git-commands';
import { wrapperCredentialRead } from './credential-reads';

/**
 * A command rule's content, compiled. `pattern`: the rule as one string of elements (character codes, and negative
 * markers: -1 between words, -2 for each unquoted `*`, which matches any characters, blanks between words included (the
 * reading of coding agents' settings files: `git push*` covers `git push --force` and `git pushx`). `optionalFrom`:
 * where a trailing ` *` or `:*` starts, which may match nothing (`git push:*` covers `git push`). `named`: how many
 * leading words of the rule name the program (the words before the first star, and the word holding it when text
 * precedes the star there).
 */
export interface CompiledCommandRule {
  readonly content: string;
  readonly pattern: readonly number[];
  readonly optionalFrom: number | undefined;
  readonly named: number;
}

/** Pattern and text elements besides character codes (which are >= 0). */
const SEP = -1;
const STAR = -2;
/** A blank beside a word that may expand to no word at all: it may vanish with it. */
const SEP_OPTIONAL = -3;
/** A word known only at run time that stays one word (quoted). */
const ONE_WORD = -4;
/** An unquoted word known only at run time: any number of words. */
const ANY_WORDS = -5;

/** Features after which no allow rule covers a command, whatever its simple commands. */
const ALLOW_BLOCKERS: readonly ShellFeature[] = [
  'command_substitution',
  'process_substitution',
  'arithmetic',
  'parameter_expansion',
  'function_definition',
  'test_command',
  'heredoc_to_shell',
  'inline_code',
  'assignment',
  'parse_error',
  'unknown_syntax',
];

/** Output redirection targets an allow rule may still cover: they write nothing to a file. */
const HARMLESS_TARGETS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

const compiled = new Map<string, CompiledCommandRule | ShellAnalysisError>();

/**
 * Compiles a command rule's content (`git commit:*`, `npm run *`, `git status`) with the bash parser, so a rule is
 * read exactly as a command is: quotes and backslashes work as in the shell, and a quoted `*` is a literal star.
 *
 * @throws ShellAnalysisError `INVALID_COMMAND_RULE` for content that is not one simple command of literal words.
 */
export async function compileCommandRule(content: string): Promise<CompiledCommandRule> {
  return compileWith(loadedBashParser() ?? (await loadBashParser()), content);
}

function compileWith(parser: BashParser, content: string): CompiledCommandRule {
  const known = compiled.get(content);
  if (known instanceof ShellAnalysisError) throw known;
  if (known !== undefined) return known;
  let result: CompiledCommandRule | ShellAnalysisError;
  try {
    result = compileFresh(parser, content);
  } catch (error) {
    if (!(error instanceof ShellAnalysisError)) throw error;
    result = error;
  }
  if (compiled.size >= 512) compiled.delete(compiled.keys().next().value as string);
  compiled.set(content, result);
  if (result instanceof ShellAnalysisError) throw result;
  return result;
}

function compileFresh(parser: BashParser, content: string): CompiledCommandRule {
  const invalid = (why: string): ShellAnalysisError =>
    new ShellAnalysisError('INVALID_COMMAND_RULE', `The command rule '${content}' ${why}: write one simple command of literal words, with '*' for any characters ('npm run *', 'git push*') or ':*' after a prefix ('git commit:*'); see docs/shell-analysis.md "Command rules".`);
  const prefix = content.endsWith(':*');
  const body = prefix ? content.slice(0, -2) : content;
  const { root, dispose } = parseBash(parser, body);
  try {
    if (root.hasError) throw invalid('is not valid shell syntax');
    const statements = root.namedChildren.filter((n) => n !== null);
    const command = statements[0];
    if (statements.length !== 1 || command?.type !== 'command') throw invalid('is not one simple command');
    const words: (string | typeof STAR)[][] = [];
    for (const child of command.namedChildren) {
      if (child === null) continue;
      const word = child.type === 'command_name' ? child.namedChildren[0] : child;
      if (word === null || word === undefined || (child.type !== 'command_name' && word.type === 'variable_assignment')) throw invalid('sets a variable');
      words.push(ruleParts(word, invalid));
    }
    if (words.some((w) => w.length > 1 && w.slice(0, -1).some((part, k) => part !== STAR && part.endsWith(':') && w[k + 1] === STAR))) {
      throw invalid("has ':*' before its end, where it marks no prefix (':*' only ends a rule; write '*' for any characters)");
    }
    // A star glued to text is any characters, blanks included, in coding agents' settings files and one word's
    // pattern in a shell; only at the end of the rule do both readings agree on what a deny rule must cover.
    const glued = words.findIndex((w, k) => w.length > 1 && w.some((part, m) => part === STAR && (m < w.length - 1 || k < words.length - 1)));
    if (glued >= 0) {
      throw invalid(`has a '*' glued to text inside a word ('${words[glued]!.map((part) => (part === STAR ? '*' : part)).join('')}'), which settings files read as any characters, blanks included, and a shell as a pattern of one word: write the star as a word of its own ('rm *'), end the rule with it ('git push*'), or quote it for a literal star ('*')`);
    }
    const pattern: number[] = [];
    let optionalFrom: number | undefined;
    let named = 0;
    let starSeen = false;
    words.forEach((word, k) => {
      if (k > 0) pattern.push(SEP);
      if (!starSeen) {
        const first = word.indexOf(STAR);
        if (first < 0) named++;
        else {
          if (word.slice(0, first).some((part) => part !== '')) named++;
          starSeen = true;
        }
      }
      if (k > 0 && k === words.length - 1 && word.length === 1 && word[0] === STAR) optionalFrom = pattern.length - 1;
      for (const part of word) {
        if (part === STAR) pattern.push(STAR);
        else for (let i = 0; i < part.length; i++) pattern.push(part.charCodeAt(i));
      }
    });
    if (prefix) {
      optionalFrom ??= pattern.length;
      pattern.push(SEP, STAR);
    }
    return Object.freeze({ content, pattern: Object.freeze(pattern), optionalFrom, named });
  } finally {
    dispose();
  }
}

/** A rule word as its literal pieces and unquoted `*` wildcards, in order. */
function ruleParts(node: SyntaxNode, invalid: (why: string) => ShellAnalysisError): (string | typeof STAR)[] {
  switch (node.type) {
    case 'word': {
      const parts: (string | typeof STAR)[] = [];
      let current = '';
      const text = node.text;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (c === '\\' && i + 1 < text.length) current += text[++i]!;
        else if (c === '*') {
          if (current !== '') parts.push(current);
          current = '';
          if (parts[parts.length - 1] !== STAR) parts.push(STAR);
        } else current += c;
      }
      if (current !== '' || parts.length === 0) parts.push(current);
      return parts;
    }
    case 'concatenation': {
      const parts: (string | typeof STAR)[] = [];
      for (const part of node.namedChildren) {
        if (part === null) continue;
        for (const piece of ruleParts(part, invalid)) {
          const previous = parts[parts.length - 1];
          if (piece === STAR && previous === STAR) continue;
          if (piece !== STAR && typeof previous === 'string') parts[parts.length - 1] = previous + piece;
          else parts.push(piece);
        }
      }
      return parts;
    }
    case 'raw_string':
    case 'string':
    case 'ansi_c_string':
    case 'number': {
      const word = wordOf(node);
      if (!word.literal) throw invalid('holds an expansion or substitution');
      return [word.text];
    }
    default:
      throw invalid(`holds a ${node.type.split('_').join(' ')}`);
  }
}

/**
 * A command's words as text elements for {@link matches}: word values joined by {@link SEP}. `sure` (allow rules):
 * a word known at run time is one element only a star matches, except a tilde word as the rule writes it (`ls
 * ~/notes` for `Bash(ls ~/notes)`: both expand alike). Otherwise (deny and ask rules) such a word could be anything:
 * an unquoted one any number of words, none included (the blanks beside it may vanish), a quoted one any one word.
 */
function textElements(words: readonly ShellWord[], sure: boolean): Int32Array {
  let length = Math.max(0, words.length - 1);
  for (const word of words) length += word.literal || (sure && isPlainTilde(word)) ? word.text.length : 1;
  const text = new Int32Array(length);
  const vanishes = (word: ShellWord) => !sure && word.splits && !word.literal;
  let at = 0;
  words.forEach((word, k) => {
    if (k > 0) text[at++] = vanishes(word) || vanishes(words[k - 1]!) ? SEP_OPTIONAL : SEP;
    if (word.literal || (sure && isPlainTilde(word))) for (let i = 0; i < word.text.length; i++) text[at++] = word.text.charCodeAt(i);
    else text[at++] = word.splits ? ANY_WORDS : ONE_WORD;
  });
  return text;
}

/**
 * Whether a rule's pattern matches a command's words (see {@link textElements}). Bottom-up over (pattern element,
 * text element) with two rows: time is their product and memory the text's length, with no recursion or regular
 * expression, so a crafted command of a million characters neither backtracks nor exhausts the stack.
 */
function matches(rule: CompiledCommandRule, words: readonly ShellWord[], sure: boolean): boolean {
  const text = textElements(words, sure);
  const pattern = rule.pattern;
  const n = text.length;
  // next[j]: pattern[i + 1..] matches text[j..]; row[j]: pattern[i..] matches text[j..].
  let next = new Uint8Array(n + 1);
  let row = new Uint8Array(n + 1);
  next[n] = 1;
  // A run-time word may end (deny rules): it stands for any text, none included, so it may close the match.
  for (let j = n - 1; j >= 0; j--) next[j] = !sure && (text[j] === ANY_WORDS || text[j] === ONE_WORD || text[j] === SEP_OPTIONAL) ? next[j + 1]! : 0;
  const end = next.slice();
  for (let i = pattern.length - 1; i >= 0; i--) {
    const p = pattern[i]!;
    row[n] = p === STAR ? next[n]! : 0;
    for (let j = n - 1; j >= 0; j--) {
      const t = text[j]!;
      let result: number;
      if (p === STAR) result = next[j]! | row[j + 1]!;
      else if (sure) result = t === p ? next[j + 1]! : 0;
      else if (t === ANY_WORDS) result = row[j + 1]! | next[j]!;
      else if (t === ONE_WORD) result = row[j + 1]! | (p === SEP ? 0 : next[j]!);
      else if (t === SEP_OPTIONAL) result = row[j + 1]! | (p === SEP ? next[j + 1]! : 0);
      else result = t === p ? next[j + 1]! : 0;
      row[j] = result;
    }
    if (i === rule.optionalFrom) for (let j = 0; j <= n; j++) row[j] = row[j]! | end[j]!;
    [next, row] = [row, next];
  }
  return next[0] === 1;
}

function withBasename(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  const head = words[0];
  if (head === undefined || !head.literal || !head.text.includes('/')) return undefined;
  return [literalWord(basename(head.text)), ...words.slice(1)];
}

/**
 * Whether a deny or ask rule could apply to `command`: any of its views, its program also by its base name, and a
 * git command whose subcommand may be an alias ({@link gitAliasAt}) as `git` followed by any words.
 */
function couldMatch(rule: CompiledCommandRule, command: SimpleCommand): boolean {
  if (command.opaque) return true;
  return command.views.some((view) => {
    if (matches(rule, view, false)) return true;
    const short = withBasename(view);
    if (short !== undefined && matches(rule, short, false)) return true;
    const alias = gitAliasAt(view);
    return alias !== undefined && [view, short ?? view].some((v) => matches(rule, gitAliasView(v, alias), false));
  });
}

/**
 * Whether an allow rule surely covers `command`: it matches one of the views allow rules may judge (up to the first
 * wrapper they may not look through), and its leading words reach the program actually run, so a rule names that
 * program: `sudo rm:*` covers `sudo rm x`, while `sudo:*`, `sudo*`, `nohup:*` or `xargs:*` cover no wrapped
 * command. A git command whose subcommand may be an alias is covered by no allow rule: what it runs is in a
 * configuration the rule cannot see.
 */
function surelyCovers(rule: CompiledCommandRule, command: SimpleCommand): boolean {
  if (command.opaque || command.runsShellCode) return false;
  if (command.views.some((view) => gitAliasAt(view) !== undefined)) return false;
  return command.views.slice(0, command.allowViews).some((view, k) => command.programAt[k]! < rule.named && matches(rule, view, true));
}

/** Why no allow rule can cover this command whatever it names, or undefined. */
export function allowBlocker(analysis: ShellAnalysis): string | undefined {
  if (analysis.unanalysable !== undefined) return analysis.unanalysable;
  const feature = ALLOW_BLOCKERS.find((f) => analysis.features.has(f));
  if (feature !== undefined) return `it has ${feature.split('_').join(' ')}`;
  const write = analysis.redirects.find((r) => r.kind === 'write' && !(r.target?.literal && HARMLESS_TARGETS.has(r.target.text)));
  if (write !== undefined) return `it redirects output to ${write.target?.text ?? 'a file'}`;
  if (analysis.commands.length === 0) return 'it runs no command';
  return undefined;
}

/**
 * Whether a command rule applies to `analysis`. An **allow** rule covers the command only when no allow blocker is
 * present ({@link allowBlocker}: substitutions, inline shell code, unsafe assignments, output redirections to
 * files...) and it covers every simple command, nested ones included, by the program actually run. A **deny** or
 * **ask** rule applies when it could match any simple command, under any of its wrappers, by a path's base name too,
 * with words known only at run time taken as anything.
 *
 * @throws ShellAnalysisError `SHELL_UNANALYSABLE` when the command cannot be analysed (the permission engine then
 *   applies deny and ask rules and no allow rule).
 */
export function ruleApplies(rule: CompiledCommandRule, analysis: ShellAnalysis, behavior: RuleBehavior): boolean {
  if (analysis.unanalysable !== undefined) {
    throw new ShellAnalysisError('SHELL_UNANALYSABLE', `the command cannot be analysed safely: ${analysis.unanalysable}`);
  }
  if (behavior !== PermissionBehavior.ALLOW) return analysis.commands.some((command) => couldMatch(rule, command));
  if (allowBlocker(analysis) !== undefined) return false;
  return analysis.commands.every((command) => surelyCovers(rule, command));
}

/**
 * Whether the command rule `pattern` applies to `command` for a rule of `behavior` (default allow), as
 * {@link commandRule} decides it. Loads the bash parser on first use.
 */
export async function commandMatchesRule(pattern: string, command: string, behavior: RuleBehavior = PermissionBehavior.ALLOW): Promise<boolean> {
  const [rule, analysis] = await Promise.all([compileCommandRule(pattern), analyzeCommand(command)]);
  return ruleApplies(rule, analysis, behavior);
}

/**
 * Rule hooks for a tool whose calls run one shell command in `input[field]`, judged on the command's parse tree
 * (tree-sitter's bash grammar): see docs/shell-analysis.md. `Bash(git commit:*)` allows `git commit -m x` and not
 * `git commit -m x && rm -rf /`; a deny rule `Bash(rm:*)` denies `echo hi; /bin/rm -rf /`, `sudo rm x`,
 * `find . -exec rm {} +` and `bash -c 'rm x'`.
 *
 * `matchRule` answers with a promise (the permission engine awaits it); the parser is loaded on first use, and
 * creating the hooks starts loading it. A command that cannot be analysed (syntax error, unknown construct) makes
 * `matchRule` reject, so deny and ask rules apply and allow rules do not. A rule whose content is not one simple
 * command rejects likewise.
 *
 * An allow rule does not cover a command whose wrapper reads a credential path (`xargs -a .env echo` under
 * `Bash(echo:*)`): the rule names the program run, not the file the wrapper reads.
 *
 * The suggestion is `<word1> <word2>:*` (or the one word) of the command when every simple command in it starts
 * with those words and an allow rule could cover it at all; otherwise none.
 *
 * @param options - `dialect`: the grammar of the shell that runs the commands, or a function resolving it (asked
 *   on each match; default bash). With `posix`, a bash-only construct makes the command unanalysable, so deny rules
 *   apply to it.
 */
export function commandRule(field: string, options: { readonly dialect?: ShellDialect | (() => Promise<ShellDialect>) } = {}): RuleHooks<Promise<boolean>> {
  void loadBashParser().catch(() => undefined);
  return {
    matchRule: async (content: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): Promise<boolean> => {
      const command = input[field];
      if (typeof command !== 'string') return false;
      const dialect = typeof options.dialect === 'function' ? await options.dialect() : options.dialect;
      const [rule, analysis] = await Promise.all([compileCommandRule(content), analyzeCommand(command, { dialect })]);
      if (behavior === PermissionBehavior.ALLOW && analysis.unanalysable === undefined && wrapperCredentialRead(analysis, context.cwd) !== undefined) return false;
      return ruleApplies(rule, analysis, behavior);
    },
    generateSuggestions: (input: Record<string, unknown>, toolName: string): PermissionRule[] => {
      const command = input[field];
      const parser = loadedBashParser();
      if (typeof command !== 'string' || parser === undefined) return [];
      const analysis = analyzeCommandSync(command, { dialect: typeof options.dialect === 'string' ? options.dialect : undefined });
      if (analysis === undefined || allowBlocker(analysis) !== undefined) return [];
      const content = suggestedContent(analysis);
      if (content === undefined) return [];
      try {
        if (!ruleApplies(compileWith(parser, content), analysis, PermissionBehavior.ALLOW)) return [];
      } catch {
        return [];
      }
      return [permissionRule(toolName, PermissionBehavior.ALLOW, content)];
    },
  };
}

function suggestedContent(analysis: ShellAnalysis): string | undefined {
  const heads = analysis.commands.map((c) => {
    const run = c.views[c.allowViews - 1];
    if (run === undefined || run.length === 0 || !run.every((w, k) => k > 1 || w.literal)) return undefined;
    const second = run[1];
    return run.length === 1 ? quoteRuleWord(run[0]!.text) : `${quoteRuleWord(run[0]!.text)} ${quoteRuleWord(second!.text)}:*`;
  });
  const first = heads[0];
  return first !== undefined && heads.every((h) => h === first) ? first : undefined;
}

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./@%+=,:-';

/** A word as rule text: bare when it has only plain characters, else single-quoted. */
export function quoteRuleWord(text: string): string {
  if (text !== '' && [...text].every((c) => PLAIN.includes(c))) return text;
  return `'${text.split("'").join(`'\\''`)}'`;
}
