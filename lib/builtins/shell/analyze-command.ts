import { loadBashParser, loadedBashParser, type BashParser } from './bash-parser';
import { parseBash, type SyntaxNode } from './syntax-tree';
import { dynamicWord, literalWord, type ShellWord } from './shell-word';
import { wordOf } from './word-of';
import { gitSubcommandView, isAssignment, isSafeVariable, isWrapper, SHELLS, unwrap } from './wrappers';
import { backquoteSubstitutions, decodeDelimiter, endsEarly, stripLeadingTabs } from './heredoc';
import { bashOnlyConstruct } from './posix-dialect';
import type { ShellDialect } from './shell-dialect';
import { builtinStateChange } from './variables';

export type { ShellDialect } from './shell-dialect';

/** Options of {@link analyzeCommand}. */
export interface AnalyzeOptions {
  /**
   * The shell that will run the command (default `bash`). With `posix` (dash, busybox ash), every construct whose
   * meaning differs between bash and a POSIX sh (`$'...'`, `&>`, `|&`, `<<<`, `[[`, arrays, `function`, brace
   * expansion, `((...))`, `<(...)`, bash-only `${...}` forms, `select`, `coproc`, `declare`...) makes the command
   * unanalysable.
   */
  readonly dialect?: ShellDialect;
}

/**
 * Risk features of a command. `command_substitution`, `process_substitution`, `arithmetic` (`$((...))`, `((...))`
 * and `[[...]]` evaluate arithmetic, which can run substitutions hidden in variable values), `parameter_expansion`
 * (`${...}` beyond a plain name), `expansion` (plain `$NAME`), `glob` (`*`, `?`, `[...]`, brace lists),
 * `subshell`, `control_flow` (if, loops, case), `function_definition`, `test_command`, `background` (`&`),
 * `heredoc_to_shell` (a shell reading its code from a here-document), `inline_code` (`sh -c`, `eval`, `source`,
 * a shell reading its input), `assignment` (a variable set outside the safe list), `parse_error`, `unknown_syntax`.
 */
export type ShellFeature =
  | 'command_substitution'
  | 'process_substitution'
  | 'arithmetic'
  | 'parameter_expansion'
  | 'expansion'
  | 'glob'
  | 'subshell'
  | 'control_flow'
  | 'function_definition'
  | 'test_command'
  | 'background'
  | 'heredoc_to_shell'
  | 'inline_code'
  | 'assignment'
  | 'parse_error'
  | 'unknown_syntax';

/** One redirection: `kind` `write` for `>`, `>>`, `>|`, `&>`, `&>>`, `<>` and `>&file`; `target` undefined when dynamic. */
export interface ShellRedirect {
  readonly operator: string;
  readonly fd: number | undefined;
  readonly kind: 'write' | 'read' | 'duplicate' | 'heredoc' | 'herestring';
  readonly target: ShellWord | undefined;
}

/** A simple command, as the shell would run it. */
export interface SimpleCommand {
  /** Its words as written (quotes and escapes removed where the value is known), assignments in front excluded. */
  readonly words: readonly ShellWord[];
  /** `NAME=VALUE` assignments in front of it and those its wrappers (`env`, `sudo`) make. */
  readonly assignments: readonly string[];
  readonly redirects: readonly ShellRedirect[];
  /**
   * The command as written, then the command each wrapper runs (`sudo env FOO=1 nice rm x`: that, `env FOO=1 nice
   * rm x`, `nice rm x`, `rm x`). The last is the command actually run.
   */
  readonly views: readonly (readonly ShellWord[])[];
  /** How many leading views an allow rule may judge (wrappers up to the first one that changes user or root, or writes). */
  readonly allowViews: number;
  /** Per view, the index of the program actually run among its words (the view's length when it is not among them). */
  readonly programAt: readonly number[];
  /** The program actually run (as written, a path kept), undefined when only known at run time. */
  readonly program: string | undefined;
  /** It runs code the analysis cannot see (a shell reading its input, `eval "$x"`, `bash -c "$x"`, a dynamic wrapper word). */
  readonly opaque: boolean;
  /** It runs shell code from a string, a file or its input (`sh`, `bash -c`, `eval`, `source`, `.`, `su`): no allow rule covers it. */
  readonly runsShellCode: boolean;
  /** Inside a substitution, inline shell code or `find -exec`, rather than at the top of the command. */
  readonly nested: boolean;
  /**
   * Files its wrappers read themselves, from their `reads-file` options (`xargs -a FILE`, `xargs --arg-file=FILE`):
   * they are not among the run view's words, and a credential check judges them as it judges arguments.
   */
  readonly wrapperReads: readonly ShellWord[];
}

/** What {@link analyzeCommand} found. Frozen; shared between callers. */
export interface ShellAnalysis {
  readonly command: string;
  /** The grammar the command was analysed in. */
  readonly dialect: ShellDialect;
  readonly commands: readonly SimpleCommand[];
  readonly features: ReadonlySet<ShellFeature>;
  readonly redirects: readonly ShellRedirect[];
  /** Assignments made as statements of their own (`X=1; ...`), as written. */
  readonly assignments: readonly string[];
  /** The analysis is not sound for this command (a syntax error, an unknown construct, too deep): fail closed. */
  readonly unanalysable: string | undefined;
}

const MAX_DEPTH = 200;
const MAX_WRAPPERS = 16;
const MAX_LENGTH = 1_000_000;
const MAX_INLINE_DEPTH = 4;
const CACHE_SIZE = 64;
const cache = new Map<string, ShellAnalysis>();

/**
 * Analyses `command` for the shell `options.dialect` names (default bash), loading the bash parser on first use; see
 * {@link analyzeCommandSync}.
 *
 * @throws ShellAnalysisError `SHELL_PARSER_UNAVAILABLE` when the parser cannot be loaded.
 */
export async function analyzeCommand(command: string, options: AnalyzeOptions = {}): Promise<ShellAnalysis> {
  return analyzeWith(loadedBashParser() ?? (await loadBashParser()), command, options.dialect ?? 'bash');
}

/** Analyses `command` with the parser already loaded (`await loadBashParser()` once first); undefined when it is not. */
export function analyzeCommandSync(command: string, options: AnalyzeOptions = {}): ShellAnalysis | undefined {
  const parser = loadedBashParser();
  return parser === undefined ? undefined : analyzeWith(parser, command, options.dialect ?? 'bash');
}

function analyzeWith(parser: BashParser, command: string, dialect: ShellDialect): ShellAnalysis {
  const key = `${dialect}\0${command}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const walker = new Walker(parser, dialect);
  if (command.length > MAX_LENGTH) walker.failure = `the command is longer than ${MAX_LENGTH} characters`;
  else walker.source(command, false, 0);
  const analysis: ShellAnalysis = Object.freeze({
    command,
    dialect,
    commands: Object.freeze(walker.commands),
    features: readOnlySet(walker.features),
    redirects: Object.freeze(walker.redirects),
    assignments: Object.freeze(walker.assignments),
    unanalysable: walker.failure,
  });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, analysis);
  return analysis;
}

/** A set shared through the cache: changes are ignored, so no caller can alter another's analysis. */
function readOnlySet<T>(set: Set<T>): ReadonlySet<T> {
  Object.defineProperties(set, {
    add: { value: () => set },
    delete: { value: () => false },
    clear: { value: () => undefined },
  });
  return Object.freeze(set);
}

/** Statement-level node types walked child by child. */
const CONTAINERS = new Set(['program', 'list', 'pipeline', 'compound_statement', 'do_group', 'negated_command', 'else_clause', 'elif_clause']);
const CONTROL_FLOW = new Set(['if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'case_item']);
/** Nodes inside expressions and words: walked for substitutions; they add no command. */
const EXPRESSION_PARTS = new Set([
  'binary_expression', 'unary_expression', 'ternary_expression', 'postfix_expression', 'parenthesized_expression', 'test_operator',
  'regex', 'extglob_pattern', 'number', 'variable_name', 'special_variable_name', 'word', 'raw_string', 'ansi_c_string', 'string_content',
  'string', 'translated_string', 'concatenation', 'array', 'subscript', 'heredoc_content', 'heredoc_start', 'heredoc_end', 'file_descriptor',
]);

/** Tokens that keep a backslash-newline inside them, as the shell does (quoted text, comments, here-document bodies) or as word-of decodes it. */
const TOKENS_WITH_CONTINUATIONS: ReadonlySet<string> = new Set(['word', 'string_content', 'raw_string', 'ansi_c_string', 'comment', 'heredoc_body', 'heredoc_content', 'string']);

/** A character that cannot end or start a word: a blank, a newline or an operator character. */
function isWordCharacter(c: string | undefined): boolean {
  return c !== undefined && !' \t\n;&|()<>'.includes(c);
}

class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly redirects: ShellRedirect[] = [];
  readonly assignments: string[] = [];
  readonly features = new Set<ShellFeature>();
  failure: string | undefined;
  private inline = 0;
  /** The source being walked, innermost inline code last. */
  private readonly texts: string[] = [];

  constructor(
    private readonly parser: BashParser,
    private readonly dialect: ShellDialect,
  ) {}

  /** Parses and walks shell source (the command, or inline code found in it). */
  source(text: string, nested: boolean, depth: number): void {
    if (this.inline > MAX_INLINE_DEPTH) return this.fail('inline shell code nested too deep');
    this.inline++;
    const { root, dispose } = parseBash(this.parser, text);
    this.texts.push(text);
    try {
      if (root.hasError) this.fail('the command has a syntax error', 'parse_error');
      // bash reads `\<CR><LF>` as a quoted CR then the end of the command; the grammar reads a line continuation.
      if (text.includes('\r')) this.fail('a carriage return, which the shell and the parser read apart');
      this.continuations(root, text);
      this.statement(root, nested, depth);
    } finally {
      dispose();
      this.texts.pop();
      this.inline--;
    }
  }

  /**
   * The shell removes a backslash-newline before it splits words, so `r\<newline>m` is `rm`; the grammar reads it as
   * a blank between two words. A line continuation with word characters on both sides that no token of the tree
   * holds (a word, a string, a comment, a here-document) is therefore unanalysable.
   */
  private continuations(root: SyntaxNode, text: string): void {
    for (let i = text.indexOf('\\\n'); i >= 0; i = text.indexOf('\\\n', i + 2)) {
      let backslashes = 0;
      for (let k = i - 1; k >= 0 && text[k] === '\\'; k--) backslashes++;
      if (backslashes % 2 === 1 || !isWordCharacter(text[i - 1]) || !isWordCharacter(text[i + 2])) continue;
      const holder = root.descendantForIndex(i, i + 2);
      if (holder !== null && holder.startIndex <= i && holder.endIndex >= i + 2 && TOKENS_WITH_CONTINUATIONS.has(holder.type)) continue;
      return this.fail('a line continuation joins two words the parser reads apart');
    }
  }

  private fail(reason: string, feature: ShellFeature = 'unknown_syntax'): void {
    this.features.add(feature);
    this.failure ??= reason;
  }

  /** In the POSIX dialect, fails on a construct bash reads differently (see {@link bashOnlyConstruct}). */
  private posix(node: SyntaxNode): void {
    if (this.dialect !== 'posix') return;
    const construct = bashOnlyConstruct(node);
    if (construct !== undefined) this.fail(`${construct} is bash syntax, and the command runs in a POSIX sh`);
  }

  private statement(node: SyntaxNode, nested: boolean, depth: number): void {
    if (depth > MAX_DEPTH) return this.fail('the command is nested too deep');
    if (node.isError || node.isMissing) return this.fail('the command has a syntax error', 'parse_error');
    this.posix(node);
    const type = node.type;
    if (!node.isNamed) {
      if (type === '&') this.features.add('background');
      return;
    }
    if (type === 'comment') return;
    // `(( expr ))` is a compound statement of arithmetic.
    if ((type === 'compound_statement' && node.child(0)?.type === '((') || type === 'c_style_for_statement') this.features.add('arithmetic');
    if (CONTAINERS.has(type)) return this.children(node, nested, depth);
    if (CONTROL_FLOW.has(type)) {
      this.features.add('control_flow');
      // `for PATH in /tmp/x; do git status; done` sets a variable as an assignment does.
      const variable = node.childForFieldName('variable');
      if (variable !== null && !isSafeVariable(variable.text)) this.features.add('assignment');
      return this.children(node, nested, depth);
    }
    switch (type) {
      case 'command':
        return this.command(node, nested, depth);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, nested, depth);
      case 'redirected_statement':
        return this.redirected(node, nested, depth);
      case 'subshell':
        this.features.add('subshell');
        return this.children(node, nested, depth);
      case 'function_definition':
        this.features.add('function_definition');
        return this.children(node, nested, depth);
      case 'test_command':
        this.features.add('test_command');
        this.features.add('arithmetic');
        return this.children(node, nested, depth);
      case 'variable_assignment':
        return this.assignment(node, this.assignments, nested, depth);
      case 'variable_assignments':
        return this.children(node, nested, depth);
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        this.redirect(node, [], nested, depth);
        return;
      case 'heredoc_body':
        return this.children(node, nested, depth);
      default:
        return this.word(node, nested, depth);
    }
  }

  private children(node: SyntaxNode, nested: boolean, depth: number): void {
    for (const child of node.children) if (child !== null) this.statement(child, nested, depth + 1);
  }

  /** A word-level node: only its substitutions and expansions matter here. */
  private word(node: SyntaxNode, nested: boolean, depth: number): void {
    if (depth > MAX_DEPTH) return this.fail('the command is nested too deep');
    if (node.isError || node.isMissing) return this.fail('the command has a syntax error', 'parse_error');
    this.posix(node);
    switch (node.type) {
      case 'command_substitution':
        this.features.add('command_substitution');
        return this.children(node, true, depth);
      case 'process_substitution':
        this.features.add('process_substitution');
        return this.children(node, true, depth);
      case 'arithmetic_expansion':
        this.features.add('arithmetic');
        break;
      case 'simple_expansion':
        this.features.add('expansion');
        break;
      case 'expansion':
        this.features.add(isPlainExpansion(node) ? 'expansion' : 'parameter_expansion');
        break;
      case 'brace_expression':
        this.features.add('glob');
        break;
      case 'heredoc_body':
        break;
      default:
        if (!node.isNamed) return;
        if (!EXPRESSION_PARTS.has(node.type)) return this.fail(`the analysis does not know the shell construct '${node.type}'`);
        if (node.type === 'word' && !wordOf(node).literal) this.features.add('glob');
    }
    for (const child of node.namedChildren) if (child !== null) this.wordOrStatement(child, nested, depth + 1);
  }

  private wordOrStatement(node: SyntaxNode, nested: boolean, depth: number): void {
    if (node.type === 'heredoc_body' || node.type === 'variable_assignment') this.statement(node, nested, depth);
    else this.word(node, nested, depth);
  }

  private assignment(node: SyntaxNode, into: string[], nested: boolean, depth: number): void {
    const name = node.childForFieldName('name');
    const text = name?.text ?? '';
    into.push(node.text);
    if (name?.type !== 'variable_name' || !isSafeVariable(text)) this.features.add('assignment');
    for (const child of node.namedChildren) if (child !== null && child.id !== name?.id && child.type !== 'variable_name') this.word(child, nested, depth + 1);
    if (name?.type === 'subscript') this.word(name, nested, depth + 1);
  }

  private redirected(node: SyntaxNode, nested: boolean, depth: number): void {
    const start = this.commands.length;
    const redirects: ShellRedirect[] = [];
    const body = node.childForFieldName('body');
    const later: SyntaxNode[] = [];
    for (const child of node.namedChildren) {
      if (child === null || child.id === body?.id) continue;
      if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
        later.push(...this.redirect(child, redirects, nested, depth));
      } else this.statement(child, nested, depth + 1);
    }
    if (body !== null) this.statement(body, nested, depth + 1);
    const end = this.commands.length;
    // The redirections of a compound body apply to the commands inside it.
    for (let i = start; i < end; i++) {
      const c = this.commands[i]!;
      this.commands[i] = Object.freeze({ ...c, redirects: Object.freeze([...c.redirects, ...redirects]) });
      if (redirects.some((r) => r.kind === 'heredoc') && c.runsShellCode) this.features.add('heredoc_to_shell');
    }
    // Commands after a here-document's start on the same line (`cat <<EOF | sh`).
    for (const statement of later) this.statement(statement, nested, depth + 1);
  }

  /** Records one redirection; returns statements the grammar nested inside a here-document redirect. */
  private redirect(node: SyntaxNode, into: ShellRedirect[], nested: boolean, depth: number): SyntaxNode[] {
    const later: SyntaxNode[] = [];
    let operator = '';
    let fd: number | undefined;
    let target: ShellWord | undefined;
    let sawTarget = false;
    const destination = node.childForFieldName('destination');
    this.posix(node);
    const heredoc: { start?: SyntaxNode; body?: SyntaxNode; end?: SyntaxNode } = {};
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        operator ||= child.type;
        continue;
      }
      if (child.type === 'file_descriptor') fd = Number(child.text);
      else if (child.type === 'heredoc_start') heredoc.start = child;
      else if (child.type === 'heredoc_end') heredoc.end = child;
      else if (child.type === 'heredoc_content') continue;
      else if (child.type === 'heredoc_body') heredoc.body = child;
      else if (node.type === 'heredoc_redirect') later.push(child);
      else if (!sawTarget && (child.id === destination?.id || node.type === 'herestring_redirect')) {
        sawTarget = true;
        target = wordOf(child);
        this.word(child, nested, depth + 1);
      } else this.word(child, nested, depth + 1);
    }
    if (node.type === 'heredoc_redirect') this.heredoc(heredoc, operator === '<<-', nested, depth);
    const kind = node.type === 'heredoc_redirect' ? 'heredoc' : node.type === 'herestring_redirect' ? 'herestring' : redirectKind(operator, target);
    const redirect: ShellRedirect = Object.freeze({ operator, fd, kind, target });
    into.push(redirect);
    this.redirects.push(redirect);
    return later;
  }

  /**
   * A here-document, read as the shell reads it: the delimiter decoded with quote removal (`E'O'F` is `EOF`, and
   * quoted), the document ending at the first line equal to it (tabs stripped for `<<-`), and the body of an unquoted
   * delimiter walked for every substitution, backquotes included. Where the parse tree ends the document elsewhere
   * than the shell would, the command is unanalysable.
   */
  private heredoc(parts: { start?: SyntaxNode; body?: SyntaxNode; end?: SyntaxNode }, stripTabs: boolean, nested: boolean, depth: number): void {
    const { start, body, end } = parts;
    const delimiter = start === undefined ? undefined : decodeDelimiter(start.text);
    if (delimiter === undefined) return this.fail(`a here-document delimiter the analysis cannot read (${start?.text ?? 'none'})`);
    const source = this.texts[this.texts.length - 1]!;
    if (end === undefined || source.slice(end.startIndex, end.endIndex) !== end.text) return this.fail('a here-document without a recognised end');
    // The whole end line, as the shell compares it (`EOF ` does not end it).
    const lineStart = source.lastIndexOf('\n', end.startIndex - 1) + 1;
    const lineEnd = source.indexOf('\n', end.startIndex);
    const endLine = source.slice(lineStart, lineEnd < 0 ? source.length : lineEnd);
    const first = body ?? end;
    const bodyStart = source.lastIndexOf('\n', first.startIndex - 1) + 1;
    const lines = lineStart > bodyStart ? source.slice(bodyStart, lineStart - 1).split('\n') : [];
    const strip = (l: string) => (stripTabs ? stripLeadingTabs(l) : l);
    if (strip(endLine) !== delimiter.text || endsEarly(lines, delimiter, stripTabs)) {
      return this.fail(`the here-document delimited by ${start!.text} does not end where the shell ends it`);
    }
    if (delimiter.quoted || body === undefined) return;
    this.word(body, nested, depth + 1);
    const skip: [number, number][] = [];
    for (const child of body.namedChildren) {
      if (child === null || child.type === 'heredoc_content') continue;
      skip.push([child.startIndex - body.startIndex, child.endIndex - body.startIndex]);
    }
    const codes = source.slice(body.startIndex, body.endIndex) === body.text ? backquoteSubstitutions(body.text, skip) : undefined;
    if (codes === undefined) return this.fail('a here-document body the analysis cannot read');
    for (const code of codes) {
      this.features.add('command_substitution');
      this.source(code, true, depth + 1);
    }
  }

  private declaration(node: SyntaxNode, nested: boolean, depth: number): void {
    const words: ShellWord[] = [];
    const assignments: string[] = [];
    for (const child of node.children) {
      if (child === null) continue;
      if (!child.isNamed) {
        if (words.length === 0) words.push(literalWord(child.type));
        continue;
      }
      if (child.type === 'variable_assignment') {
        this.assignment(child, assignments, nested, depth);
        words.push(wordOf(child));
      } else if (child.type === 'variable_name') words.push(literalWord(child.text));
      else {
        this.word(child, nested, depth + 1);
        words.push(wordOf(child));
      }
    }
    this.features.add('assignment');
    this.push({ words, assignments, redirects: [], nested, depth });
  }

  private command(node: SyntaxNode, nested: boolean, depth: number): void {
    const assignments: string[] = [];
    const redirects: ShellRedirect[] = [];
    const words: ShellWord[] = [];
    for (const child of node.namedChildren) {
      if (child === null) continue;
      if (child.type === 'variable_assignment') this.assignment(child, assignments, nested, depth);
      else if (child.type === 'file_redirect' || child.type === 'herestring_redirect' || child.type === 'heredoc_redirect') {
        for (const statement of this.redirect(child, redirects, nested, depth)) this.statement(statement, nested, depth + 1);
      } else if (child.type === 'command_name') {
        this.posix(child);
        const name = child.namedChildren[0];
        if (name === undefined || name === null) return this.fail('a command without a name');
        this.word(name, nested, depth + 1);
        words.push(wordOf(name));
      } else {
        this.word(child, nested, depth + 1);
        words.push(wordOf(child));
      }
    }
    if (words.length === 0) return;
    this.push({ words, assignments, redirects, nested, depth });
  }

  /** Adds a simple command with its wrapper views, analysing inline shell code and `find -exec` commands in it. */
  private push(init: { words: ShellWord[]; assignments: string[]; redirects: ShellRedirect[]; nested: boolean; depth: number }): void {
    const { words, nested, depth } = init;
    const assignments = [...init.assignments];
    const views: ShellWord[][] = [words];
    let transparent = assignments.every((a) => !unsafeAssignment(a));
    // Assignments in front that could change what runs (`PATH=`, `LD_PRELOAD=`) keep every allow rule off it.
    let allowViews = transparent ? 1 : 0;
    let opaque = false;
    let current = words;
    const starts: number[] = [];
    const wrapperReads: ShellWord[] = [];
    for (let steps = 0; ; steps++) {
      const head = current[0];
      if (head === undefined || !head.literal || !isWrapper(head.text)) break;
      if (steps === MAX_WRAPPERS) {
        opaque = true;
        break;
      }
      const step = unwrap(current);
      assignments.push(...step.assignments);
      wrapperReads.push(...step.reads);
      if (!step.transparent || step.assignments.some(unsafeAssignment)) transparent = false;
      if (step.opaque) opaque = true;
      if (step.inner === undefined) break;
      starts.push(step.start);
      current = step.inner;
      views.push(current);
      if (transparent) allowViews = views.length;
    }
    // Where the program actually run sits in each view: the sum of the wrappers' offsets after it.
    const programAt = views.map((view, k) => {
      let at = 0;
      for (let m = k; m < starts.length; m++) {
        if (starts[m]! >= views[m]!.length) return view.length;
        at += starts[m]!;
      }
      return at;
    });
    const last = views[views.length - 1]!;
    const git = last[0]?.literal && basename(last[0].text) === 'git' ? gitSubcommandView(last) : undefined;
    if (git !== undefined) {
      views.push(git.view);
      programAt.push(0);
      if (transparent && git.harmless && allowViews === views.length - 1) allowViews = views.length;
    }
    const run = views[views.length - 1]!;
    const head = run[0];
    const program = head?.literal ? head.text : undefined;
    if (head !== undefined && !head.literal) opaque = true;
    const base = program === undefined ? undefined : basename(program);
    let runsShellCode = false;
    if (base !== undefined && CODE_RUNNERS.has(base)) {
      runsShellCode = true;
      this.features.add('inline_code');
      const code = inlineCode(base, run);
      if (code === undefined) opaque = true;
      else if (code !== null) this.source(code, true, depth + 1);
    }
    if (base === 'find') this.findExec(run, depth);
    const state = base === undefined ? undefined : builtinStateChange(base, run);
    if (state !== undefined) this.features.add(state);
    if (base !== undefined && LOOSE_WRAPPERS.has(base)) {
      // It runs a command among its arguments, behind options we do not model: a deny rule may match from any word
      // on, and no allow rule looks through it.
      for (let k = 1; k < run.length; k++) {
        views.push(run.slice(k));
        programAt.push(0);
      }
      runsShellCode = true;
    }
    this.commands.push(Object.freeze({
      words: Object.freeze(words),
      assignments: Object.freeze(assignments),
      redirects: Object.freeze(init.redirects),
      views: Object.freeze(views.map((v) => Object.freeze(v))),
      allowViews,
      programAt: Object.freeze(programAt),
      program,
      opaque,
      runsShellCode,
      nested,
      wrapperReads: Object.freeze(wrapperReads),
    }));
  }

  /** `find ... -exec cmd args ;` (and `-execdir`, `-ok`, `-okdir`): each runs a command of its own. */
  private findExec(words: readonly ShellWord[], depth: number): void {
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!;
      if (!w.literal || !['-exec', '-execdir', '-ok', '-okdir'].includes(w.text)) continue;
      const inner: ShellWord[] = [];
      for (i++; i < words.length; i++) {
        const x = words[i]!;
        if (x.literal && (x.text === ';' || x.text === '+')) break;
        inner.push(x.literal && x.text.includes('{}') ? dynamicWord(x.text, false) : x);
      }
      if (inner.length > 0) this.push({ words: inner, assignments: [], redirects: [], nested: true, depth: depth + 1 });
    }
  }
}

/**
 * The inline code a shell-running command executes: the `-c` string of a shell, `su` or `runuser`, the joined
 * arguments of `eval` and `watch`; null when it runs a file (a script, `source`); undefined when the code is not
 * known (a dynamic string, or a shell reading its input).
 */
function inlineCode(program: string, words: readonly ShellWord[]): string | null | undefined {
  if (program === 'eval' || program === 'watch') {
    const args = program === 'watch' ? skipWatchOptions(words) : words.slice(1);
    if (args === undefined || args.some((w) => !w.literal)) return undefined;
    return args.map((w) => w.text).join(' ');
  }
  if (program === 'trap') {
    // trap [-lp] [[action] signal...]: the action is shell code run later (bash(1), SHELL BUILTIN COMMANDS).
    const args = words.slice(1).filter((w, k) => !(k === 0 && w.literal && (w.text === '--' || w.text === '-p' || w.text === '-l')));
    const action = args[0];
    if (action === undefined || args.length === 1) return null;
    return action.literal ? action.text : undefined;
  }
  // An alias definition changes what later words run; `script` runs a shell or a `-c` string.
  if (program === 'alias') return words.some((w, k) => k > 0 && (!w.literal || w.text.includes('='))) ? undefined : null;
  if (program === 'script') return undefined;
  if (program === 'source' || program === '.') return scriptFile(words[1]);
  let command = false;
  let stdin = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (!w.literal) return undefined;
    if (w.text === '--' || w.text === '-') {
      const next = words[i + 1];
      if (command) return next?.literal ? next.text : undefined;
      return next === undefined || stdin ? undefined : scriptFile(next);
    }
    if (w.text.startsWith('--')) {
      if (w.text === '--command') command = true;
      else if (w.text === '--rcfile' || w.text === '--init-file') i++;
      continue;
    }
    if (w.text.length > 1 && (w.text[0] === '-' || w.text[0] === '+')) {
      if (w.text.includes('c')) command = true;
      // `-s`: the code comes from the input, the operands are its arguments.
      if (w.text[0] === '-' && w.text.includes('s')) stdin = true;
      if (w.text.endsWith('o') || w.text.endsWith('O')) i++;
      continue;
    }
    // The first operand: the command string after -c, else a script file (su and runuser take a user name here).
    if (command) return w.text;
    if (program === 'su' || program === 'runuser') continue;
    return stdin ? undefined : scriptFile(w);
  }
  return undefined;
}

/**
 * A script file run by a shell or `source`: null (a file, not read), or undefined when its code comes from the
 * command itself or cannot be known: a dynamic word or process substitution, `/dev/stdin`, `/dev/fd/N`, `/proc/...`.
 */
function scriptFile(word: ShellWord | undefined): null | undefined {
  if (word === undefined || !word.literal) return undefined;
  return word.text.startsWith('/dev/') || word.text.startsWith('/proc/') ? undefined : null;
}

/** Programs that run shell code from a string, a file or their input. */
const CODE_RUNNERS: ReadonlySet<string> = new Set([...SHELLS, 'eval', 'source', '.', 'su', 'runuser', 'watch', 'trap', 'alias', 'script']);

/**
 * Programs that run a command given among their arguments, behind options the analysis does not model (strace(1),
 * ltrace(1), valgrind(1), fakeroot(1), firejail(1), unshare(1), nsenter(1), systemd-run(1), setpriv(1), prlimit(1),
 * runcon(1), parallel(1), pkexec(1), faketime(1), proxychains(1), torsocks(1), ssh-agent(1), dbus-launch(1),
 * catchsegv(1), arch(1)).
 */
const LOOSE_WRAPPERS: ReadonlySet<string> = new Set([
  'strace', 'ltrace', 'valgrind', 'fakeroot', 'firejail', 'proot', 'unshare', 'nsenter', 'systemd-run', 'setpriv', 'prlimit', 'runcon',
  'parallel', 'pkexec', 'faketime', 'proxychains', 'proxychains4', 'torsocks', 'tsocks', 'ssh-agent', 'dbus-launch', 'catchsegv', 'arch',
]);

function skipWatchOptions(words: readonly ShellWord[]): readonly ShellWord[] | undefined {
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!w.literal) return undefined;
    if (!w.text.startsWith('-')) break;
    if (w.text === '-n' || w.text === '--interval') i++;
  }
  return words.slice(i);
}

function redirectKind(operator: string, target: ShellWord | undefined): ShellRedirect['kind'] {
  switch (operator) {
    case '<':
    case '<&-':
      return 'read';
    case '<&':
    case '>&':
      // `2>&1`, `>&2`, `<&0`: a descriptor copy; `>& file` writes the file.
      return target?.literal && isDigits(target.text) ? 'duplicate' : target?.literal && target.text === '-' ? 'duplicate' : operator === '<&' ? 'read' : 'write';
    case '>&-':
      return 'duplicate';
    default:
      return 'write';
  }
}

function isDigits(text: string): boolean {
  if (text === '') return false;
  for (const c of text) if (c < '0' || c > '9') return false;
  return true;
}

function isPlainExpansion(node: SyntaxNode): boolean {
  const named = node.namedChildren;
  return named.length === 1 && named[0]?.type === 'variable_name' && node.text === `\${${named[0].text}}`;
}

export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash < 0 ? program : program.slice(slash + 1);
}

/** Whether an assignment word `NAME=VALUE` sets a variable outside the safe list. */
export function unsafeAssignment(text: string): boolean {
  return !isAssignment(text) || !isSafeVariable(text.slice(0, text.indexOf('=')));
}
