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

/** One word of a rule: `any` (a lone `*`, or the tail of `prefix:*`), or literal text with `*` wildcards between `parts`. */
type RuleToken = { readonly any: true } | { readonly any: false; readonly parts: readonly string[] };

/** A command rule's content, compiled: the words a simple command must have. */
export interface CompiledCommandRule {
  readonly content: string;
  readonly tokens: readonly RuleToken[];
}

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
    new ShellAnalysisError('INVALID_COMMAND_RULE', `The command rule '${content}' ${why}: write one simple command of literal words, with '*' for any words ('npm run *') or ':*' after a prefix ('git commit:*').`);
  const prefix = content.endsWith(':*');
  const body = prefix ? content.slice(0, -2) : content;
  const { root, dispose } = parseBash(parser, body);
  try {
    if (root.hasError) throw invalid('is not valid shell syntax');
    const statements = root.namedChildren.filter((n) => n !== null);
    const command = statements[0];
    if (statements.length !== 1 || command?.type !== 'command') throw invalid('is not one simple command');
    const tokens: RuleToken[] = [];
    for (const child of command.namedChildren) {
      if (child === null) continue;
      const word = child.type === 'command_name' ? child.namedChildren[0] : child;
      if (word === null || word === undefined || (child.type !== 'command_name' && word.type === 'variable_assignment')) throw invalid('sets a variable');
      tokens.push(ruleToken(word, invalid));
    }
    if (prefix) tokens.push({ any: true });
    return Object.freeze({ content, tokens: Object.freeze(tokens) });
  } finally {
    dispose();
  }
}

function ruleToken(node: SyntaxNode, invalid: (why: string) => ShellAnalysisError): RuleToken {
  const parts = ruleParts(node, invalid);
  return parts.length === 2 && parts[0] === '' && parts[1] === '' ? { any: true } : { any: false, parts };
}

/** The literal pieces of a rule word around its unquoted `*` wildcards. */
function ruleParts(node: SyntaxNode, invalid: (why: string) => ShellAnalysisError): string[] {
  switch (node.type) {
    case 'word': {
      const parts: string[] = [];
      let current = '';
      const text = node.text;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (c === '\\' && i + 1 < text.length) current += text[++i]!;
        else if (c === '*') {
          parts.push(current);
          current = '';
        } else current += c;
      }
      parts.push(current);
      return parts;
    }
    case 'concatenation': {
      const parts: string[] = [];
      let current = '';
      for (const part of node.namedChildren) {
        if (part === null) continue;
        const pieces = ruleParts(part, invalid);
        current += pieces[0]!;
        for (let k = 1; k < pieces.length; k++) {
          parts.push(current);
          current = pieces[k]!;
        }
      }
      parts.push(current);
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
 * Whether a rule's words match a command's words. `sure` (allow rules): only literal words match literal rule
 * words, and a tilde word written as the rule writes it (`ls ~/notes` for `Bash(ls ~/notes)`: both expand alike); a
 * word known at run time matches only `*`. Otherwise (deny and ask rules) a word known at run time could be
 * anything: an unquoted one any number of words, a quoted one any one word.
 */
function matchWords(tokens: readonly RuleToken[], words: readonly ShellWord[], sure: boolean): boolean {
  // Bottom-up over (rule token, command word): time and memory are tokens × words, and no recursion, so a command of
  // tens of thousands of words neither backtracks nor exhausts the stack. at(i, j): tokens[i..] match words[j..].
  const width = words.length + 1;
  const table = new Uint8Array((tokens.length + 1) * width);
  const at = (i: number, j: number): boolean => table[i * width + j] === 1;
  let restSplits = true;
  for (let j = words.length; j >= 0; j--) {
    if (j < words.length) restSplits = restSplits && words[j]!.splits;
    table[tokens.length * width + j] = j === words.length || (!sure && restSplits) ? 1 : 0;
  }
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    for (let j = words.length; j >= 0; j--) {
      const word = words[j];
      let result: boolean;
      if (token.any) result = at(i + 1, j) || (word !== undefined && at(i, j + 1));
      else if (word === undefined) result = false;
      else if (word.literal || (sure && isPlainTilde(word))) result = at(i + 1, j + 1) && globMatch(token.parts, word.text);
      else if (sure) result = false;
      else result = at(i + 1, j + 1) || (word.splits && (at(i, j + 1) || at(i + 1, j)));
      table[i * width + j] = result ? 1 : 0;
    }
  }
  return at(0, 0);
}

function globMatch(parts: readonly string[], text: string): boolean {
  if (parts.length === 1) return text === parts[0];
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const found = text.indexOf(parts[k]!, at);
    if (found < 0 || found + parts[k]!.length > end) return false;
    at = found + parts[k]!.length;
  }
  return true;
}

function withBasename(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  const head = words[0];
  if (head === undefined || !head.literal || !head.text.includes('/')) return undefined;
  return [literalWord(basename(head.text)), ...words.slice(1)];
}

/** Whether a deny or ask rule could apply to `command`: any of its views, its program also by its base name. */
function couldMatch(rule: CompiledCommandRule, command: SimpleCommand): boolean {
  if (command.opaque) return true;
  return command.views.some((view) => {
    if (matchWords(rule.tokens, view, false)) return true;
    const short = withBasename(view);
    return short !== undefined && matchWords(rule.tokens, short, false);
  });
}

/**
 * Whether an allow rule surely covers `command`: it matches one of the views allow rules may judge (up to the first
 * wrapper they may not look through), and its leading literal words reach the program actually run, so a rule
 * names that program: `sudo rm:*` covers `sudo rm x`, while `sudo:*`, `nohup:*` or `xargs:*` cover no wrapped
 * command.
 */
function surelyCovers(rule: CompiledCommandRule, command: SimpleCommand): boolean {
  if (command.opaque || command.runsShellCode) return false;
  const fixed = leadingLiterals(rule);
  return command.views.slice(0, command.allowViews).some((view, k) => command.programAt[k]! < fixed && matchWords(rule.tokens, view, true));
}

/** How many words at the start of a rule are plain literal words (no `*`). */
function leadingLiterals(rule: CompiledCommandRule): number {
  let n = 0;
  while (n < rule.tokens.length) {
    const token = rule.tokens[n]!;
    if (token.any || token.parts.length !== 1) break;
    n++;
  }
  return n;
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
    matchRule: async (content: string, input: Record<string, unknown>, _context: PermissionContext, behavior: RuleBehavior): Promise<boolean> => {
      const command = input[field];
      if (typeof command !== 'string') return false;
      const dialect = typeof options.dialect === 'function' ? await options.dialect() : options.dialect;
      const [rule, analysis] = await Promise.all([compileCommandRule(content), analyzeCommand(command, { dialect })]);
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
