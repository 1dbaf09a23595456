import type { OptionSpec, ProgramGrammar } from '../grammar-types';
import { opt, operand } from '../spec-helpers';

const SOURCE = 'git 2.39.5';
const REVS_AND_PATHS = [operand('REVISION-OR-PATH', 'read', true)];

/**
 * Options of the revision walk (git-log(1) and git-rev-list(1), "Commit Limiting", "History Simplification",
 * "Commit Ordering", "Commit Formatting"). git's revision parser takes `--format=X`, `--date=X`, `--decorate=X` only
 * glued (`git log --format --output=x` is no format: git writes x, then fails), so those are `optional` here.
 */
const REVISION: readonly OptionSpec[] = [
  opt('n', ['max-count'], 'required'), opt('', ['skip', 'since', 'after', 'until', 'before', 'author', 'committer', 'grep', 'grep-reflog', 'since-as-filter'], 'required'),
  opt('', ['format', 'pretty', 'date', 'decorate', 'decorate-refs', 'decorate-refs-exclude', 'abbrev', 'glob', 'exclude', 'branches', 'tags', 'remotes', 'encoding', 'min-parents', 'max-parents', 'notes', 'show-notes', 'expand-tabs', 'show-linear-break'], 'optional'),
  opt('', ['oneline', 'follow', 'no-decorate', 'source', 'mailmap', 'use-mailmap', 'no-mailmap', 'no-use-mailmap', 'log-size', 'all', 'reflog', 'first-parent', 'exclude-first-parent-only',
    'merges', 'no-merges', 'no-min-parents', 'no-max-parents', 'not', 'ancestry-path', 'simplify-by-decoration', 'simplify-merges', 'full-history', 'dense', 'sparse', 'show-pulls',
    'graph', 'reverse', 'topo-order', 'date-order', 'author-date-order', 'left-right', 'left-only', 'right-only', 'cherry-pick', 'cherry-mark', 'cherry', 'boundary', 'walk-reflogs',
    'merge', 'abbrev-commit', 'no-abbrev-commit', 'no-abbrev', 'relative-date', 'parents', 'children', 'regexp-ignore-case', 'basic-regexp', 'extended-regexp', 'fixed-strings',
    'perl-regexp', 'all-match', 'invert-grep', 'no-notes', 'no-expand-tabs', 'clear-decorations', 'no-walk', 'do-walk', 'in-commit-order', 'single-worktree', 'bisect', 'stdin', 'alternate-refs',
    'count', 'objects', 'objects-edge', 'no-object-names', 'timestamp', 'header', 'unpacked', 'quiet', 'no-graph', 'ignore-missing']),
  opt('g', []), opt('i', []), opt('E', []), opt('F', []), opt('P', []),
  opt('', ['show-signature'], 'none', 'runs', 'runs gpg to verify signatures'),
];

/**
 * Diff options (git-diff(1), "OPTIONS" shared by log, show and diff). `-O<orderfile>` reads a file here (git grep's
 * `-O` is another option); `--output` writes, `--ext-diff` and `--textconv` run programs a repository names.
 */
const DIFF: readonly OptionSpec[] = [
  opt('p', ['patch']), opt('u', []), opt('s', ['no-patch']), opt('U', ['unified'], 'optional'), opt('', ['output'], 'required', 'writes', 'writes the diff to this file'),
  opt('', ['output-indicator-new', 'output-indicator-old', 'output-indicator-context', 'src-prefix', 'dst-prefix', 'line-prefix', 'diff-algorithm', 'anchored', 'diff-filter',
    'ws-error-highlight', 'color-moved-ws', 'inter-hunk-context', 'relative', 'ignore-submodules', 'submodule', 'color', 'color-moved', 'word-diff', 'word-diff-regex', 'color-words',
    'stat', 'dirstat', 'dirstat-by-file', 'find-renames', 'find-copies', 'break-rewrites', 'stat-width', 'stat-name-width', 'stat-count', 'stat-graph-width'], 'optional'),
  opt('', ['raw', 'patch-with-raw', 'indent-heuristic', 'no-indent-heuristic', 'minimal', 'patience', 'histogram', 'compact-summary', 'numstat', 'shortstat', 'cumulative',
    'summary', 'patch-with-stat', 'name-only', 'name-status', 'no-color', 'no-renames', 'rename-empty', 'no-rename-empty', 'check', 'full-index', 'binary', 'find-copies-harder',
    'irreversible-delete', 'pickaxe-all', 'pickaxe-regex', 'no-relative', 'text', 'ignore-cr-at-eol', 'ignore-space-at-eol', 'ignore-space-change', 'ignore-all-space',
    'ignore-blank-lines', 'function-context', 'exit-code', 'no-prefix', 'default-prefix', 'ita-invisible-in-index', 'ita-visible-in-index',
    'full-diff', 'cc', 'dd', 'combined-all-paths', 'no-diff-merges', 'no-stat', 'z']),
  opt('', ['diff-merges'], 'required'),
  opt('', ['remerge-diff'], 'none', 'writes', 'writes temporary objects into the repository'),
  opt('M', [], 'optional'), opt('C', [], 'optional'), opt('B', [], 'optional'), opt('l', [], 'optional'), opt('D', []), opt('R', []), opt('a', []), opt('b', []), opt('w', []), opt('W', []),
  opt('c', []), opt('m', []), opt('t', []), opt('S', [], 'required'), opt('G', [], 'required'), opt('O', [], 'optional', 'reads-file'), opt('I', ['ignore-matching-lines'], 'required'),
  opt('', ['ext-diff'], 'none', 'runs', "runs the repository's external diff program"),
  opt('', ['textconv'], 'none', 'runs', "runs the repository's textconv programs"),
];

/** `git log` options that make it show patches, and so run diff drivers (git-log(1), "Diff Formatting"). */
const PATCH_OPTIONS = ['-p', '-u', '--patch', '--patch-with-stat', '--patch-with-raw', '--cc', '-c', '-m', '--dd', '--full-diff', '-U', '--unified', '--word-diff', '--color-words', '-L', '--diff-merges', '-W', '--function-context'];
const DRIVERS = "a repository's diff.<driver>.textconv runs otherwise, and no environment variable turns it off (gitattributes(5))";

function sub(name: string, page: string, options: readonly OptionSpec[], operands: ProgramGrammar['operands'], extra: Partial<ProgramGrammar> = {}): ProgramGrammar {
  return { name, source: `${page}, ${SOURCE}`, syntax: 'git', options: [...options, opt('h', [])], operands, ...extra };
}

const LOG_ONLY = [opt('L', [], 'required')];

const LISTING = [
  opt('', ['sort', 'format'], 'required'), opt('', ['color', 'column', 'abbrev'], 'optional'), opt('', ['contains', 'no-contains', 'merged', 'no-merged', 'points-at'], 'required'),
  opt('i', ['ignore-case']), opt('', ['no-color', 'no-column', 'omit-empty', 'no-abbrev']),
];

/** git 2.39 (git(1)): its global options, and the subcommands that only read, each with its own grammar. */
export const GIT: ProgramGrammar = {
  name: 'git',
  source: `git(1), ${SOURCE}`,
  syntax: 'git',
  note: 'a subcommand not listed (an alias, perhaps) is never read-only; -c, --config-env, --exec-path, --git-dir and --work-tree are not listed: they change the programs git runs',
  options: [
    opt('C', [], 'required'), opt('', ['no-pager', 'no-optional-locks', 'literal-pathspecs', 'glob-pathspecs', 'noglob-pathspecs', 'icase-pathspecs', 'no-replace-objects', 'no-lazy-fetch', 'no-advice', 'version']),
    opt('', ['help'], 'none', 'runs', 'shows the manual page through man(1), or a browser with help.format=web'),
    opt('P', []), opt('p', ['paginate']), opt('v', []),
  ],
  operands: [operand('SUBCOMMAND', 'text', true)],
  subcommands: [
    sub('status', 'git-status(1)', [
      opt('s', ['short']), opt('b', ['branch']), opt('', ['show-stash', 'long', 'no-ahead-behind', 'ahead-behind', 'renames', 'no-renames', 'no-column']), opt('v', ['verbose']),
      opt('', ['porcelain', 'ignore-submodules', 'ignored', 'column'], 'optional'), opt('M', ['find-renames'], 'optional'), opt('u', ['untracked-files'], 'optional'), opt('z', ['null']),
    ], [operand('PATHSPEC', 'read', true)]),
    sub('log', 'git-log(1)', [...REVISION, ...DIFF, ...LOG_ONLY], REVS_AND_PATHS, { numeric: true, requires: [{ all: ['--no-textconv'], when: PATCH_OPTIONS, why: DRIVERS }] }),
    sub('show', 'git-show(1)', [...REVISION, ...DIFF], REVS_AND_PATHS, { numeric: true, requires: [{ all: ['--no-textconv'], why: DRIVERS }] }),
    sub('diff', 'git-diff(1)', [...DIFF, opt('', ['cached', 'staged', 'merge-base', 'no-index', 'quiet', 'ours', 'theirs', 'base']), opt('1', []), opt('2', []), opt('3', [])], REVS_AND_PATHS, {
      requires: [
        { all: ['--no-textconv', '--no-ext-diff'], why: `${DRIVERS}; diff.<driver>.command runs without --no-ext-diff` },
        { all: [], any: ['--cached', '--staged', '--no-index'], why: 'a diff against the working tree refreshes the index first, rewriting .git/index even with GIT_OPTIONAL_LOCKS=0' },
      ],
    }),
    sub('shortlog', 'git-shortlog(1)', [...REVISION.map((o) => (o.short.includes('n') ? opt('', o.long, o.value) : o)), opt('n', ['numbered']), opt('s', ['summary']), opt('e', ['email']), opt('', ['group'], 'required'), opt('c', []), opt('w', [], 'optional')], REVS_AND_PATHS, { numeric: true }),
    sub('rev-list', 'git-rev-list(1)', REVISION, REVS_AND_PATHS, { numeric: true }),
    sub('ls-files', 'git-ls-files(1)', [
      opt('c', ['cached']), opt('d', ['deleted']), opt('m', ['modified']), opt('o', ['others']), opt('i', ['ignored']), opt('s', ['stage']), opt('u', ['unmerged']), opt('k', ['killed']),
      opt('z', []), opt('t', []), opt('v', []), opt('f', []), opt('', ['directory', 'empty-directory', 'eol', 'deduplicate', 'exclude-standard', 'error-unmatch', 'full-name', 'recurse-submodules', 'debug', 'sparse', 'resolve-undo']),
      opt('x', ['exclude'], 'required'), opt('X', ['exclude-from'], 'required', 'reads-file'), opt('', ['exclude-per-directory', 'with-tree', 'format'], 'required'), opt('', ['abbrev'], 'optional'),
    ], [operand('FILE', 'read', true)]),
    sub('ls-tree', 'git-ls-tree(1)', [
      opt('d', []), opt('r', []), opt('t', []), opt('l', ['long']), opt('z', []), opt('', ['name-only', 'name-status', 'object-only', 'full-name', 'full-tree']), opt('', ['abbrev'], 'optional'), opt('', ['format'], 'required'),
    ], [operand('TREE-ISH', 'text'), operand('PATH', 'read', true)]),
    sub('cat-file', 'git-cat-file(1)', [
      opt('t', []), opt('s', []), opt('e', []), opt('p', []), opt('', ['path'], 'required'), opt('', ['batch', 'batch-check', 'batch-command'], 'optional'),
      opt('', ['batch-all-objects', 'buffer', 'follow-symlinks', 'unordered', 'allow-unknown-type', 'mailmap', 'use-mailmap']), opt('Z', []), opt('z', []),
      opt('', ['textconv'], 'none', 'runs', "runs the repository's textconv program"), opt('', ['filters'], 'none', 'runs', "runs the repository's filter programs"),
    ], [operand('TYPE-OR-OBJECT', 'text'), operand('OBJECT', 'text')]),
    sub('rev-parse', 'git-rev-parse(1)', [
      opt('q', ['quiet']), opt('', ['verify', 'sq', 'not', 'symbolic', 'symbolic-full-name', 'all', 'local-env-vars', 'git-dir', 'git-common-dir', 'show-toplevel',
        'show-superproject-working-tree', 'shared-index-path', 'absolute-git-dir', 'is-inside-git-dir', 'is-inside-work-tree', 'is-bare-repository', 'is-shallow-repository',
        'show-cdup', 'show-prefix', 'revs-only', 'no-revs', 'flags', 'no-flags', 'keep-dashdash', 'stop-at-non-option', 'stuck-long', 'sq-quote', 'show-ref-format']),
      opt('', ['short', 'abbrev-ref', 'branches', 'tags', 'remotes', 'glob', 'exclude', 'disambiguate', 'path-format', 'show-object-format', 'since', 'after', 'until', 'before'], 'optional'),
      opt('', ['default', 'prefix', 'resolve-git-dir', 'git-path'], 'required'),
    ], [operand('ARG', 'text', true)]),
    sub('describe', 'git-describe(1)', [
      opt('', ['dirty'], 'optional', 'writes', 'refreshes the index first, rewriting .git/index even with GIT_OPTIONAL_LOCKS=0'), opt('', ['broken', 'abbrev'], 'optional'), opt('', ['candidates', 'match', 'exclude'], 'required'), opt('', ['all', 'tags', 'contains', 'exact-match', 'debug', 'long', 'always', 'first-parent']),
    ], [operand('COMMIT-ISH', 'text', true)]),
    sub('blame', 'git-blame(1)', [
      opt('b', []), opt('', ['root', 'show-stats', 'reverse', 'first-parent', 'line-porcelain', 'incremental', 'progress', 'no-progress', 'color-lines', 'color-by-age', 'score-debug', 'minimal']),
      opt('L', [], 'required'), opt('l', []), opt('t', []), opt('S', [], 'required', 'reads-file'), opt('p', ['porcelain']), opt('', ['encoding', 'date', 'abbrev'], 'optional'),
      opt('', ['contents', 'ignore-revs-file'], 'required', 'reads-file'), opt('', ['ignore-rev'], 'required'), opt('M', [], 'optional'), opt('C', [], 'optional'),
      opt('f', ['show-name']), opt('n', ['show-number']), opt('s', []), opt('e', ['show-email']), opt('w', []), opt('c', []),
      opt('', ['textconv'], 'none', 'runs', "runs the repository's textconv programs"),
    ], [operand('REVISION-OR-FILE', 'read', true)], { aliases: ['annotate'], requires: [{ all: ['--no-textconv'], why: DRIVERS }] }),
    sub('grep', 'git-grep(1)', [
      opt('', ['ext-grep', 'cached', 'untracked', 'no-index', 'exclude-standard', 'no-exclude-standard', 'recurse-submodules', 'full-name', 'column', 'break', 'heading', 'all-match', 'and', 'or', 'not', 'no-color']),
      opt('a', ['text']), opt('i', ['ignore-case']), opt('I', []), opt('', ['max-depth', 'threads'], 'required'), opt('r', ['recursive']), opt('w', ['word-regexp']), opt('v', ['invert-match']),
      opt('h', []), opt('H', []), opt('E', ['extended-regexp']), opt('G', ['basic-regexp']), opt('F', ['fixed-strings']), opt('P', ['perl-regexp']), opt('n', ['line-number']),
      opt('l', ['files-with-matches', 'name-only']), opt('L', ['files-without-match']), opt('z', ['null']), opt('o', ['only-matching']), opt('c', ['count']), opt('', ['color'], 'optional'),
      opt('p', ['show-function']), opt('C', ['context'], 'required'), opt('A', ['after-context'], 'required'), opt('B', ['before-context'], 'required'), opt('W', ['function-context']),
      opt('m', ['max-count'], 'required'), opt('f', [], 'required', 'reads-file'), opt('e', [], 'required'), opt('q', ['quiet']),
      opt('O', ['open-files-in-pager'], 'optional', 'runs', 'opens the matching files in this program (a shell command line)'),
      opt('', ['textconv'], 'none', 'runs', "runs the repository's textconv programs"),
    ], [operand('PATTERN-REVISION-OR-PATH', 'read', true)], { numeric: true }),
    sub('branch', 'git-branch(1)', [
      ...LISTING, opt('l', ['list']), opt('a', ['all']), opt('r', ['remotes']), opt('v', ['verbose']), opt('q', ['quiet']), opt('', ['show-current', 'recurse-submodules']),
      opt('t', ['track'], 'optional', 'writes', 'sets up tracking of a new branch'), opt('u', ['set-upstream-to'], 'required', 'writes', 'changes the configuration'),
      opt('', ['unset-upstream', 'edit-description', 'create-reflog'], 'none', 'writes', 'changes branches or the configuration'),
      opt('dDmMcC', ['delete', 'move', 'copy'], 'none', 'writes', 'deletes, renames or copies branches'), opt('f', ['force'], 'none', 'writes', 'resets a branch'),
    ], [operand('PATTERN', 'pattern', true)], {
      requires: [{ all: ['--list'], when: ['PATTERN'], why: 'a name without --list creates a branch' }],
    }),
    sub('tag', 'git-tag(1)', [
      ...LISTING, opt('l', ['list']), opt('n', [], 'optional'),
      opt('dvaesf', ['delete', 'verify', 'annotate', 'edit', 'sign', 'force', 'create-reflog'], 'none', 'writes', 'creates, deletes or verifies (runs gpg) tags'),
      opt('mFu', ['message', 'file', 'cleanup', 'local-user'], 'required', 'writes', 'creates a tag'),
    ], [operand('PATTERN', 'pattern', true)], {
      requires: [{ all: ['--list'], when: ['PATTERN'], why: 'a name without --list creates a tag' }],
    }),
    sub('remote', 'git-remote(1)', [opt('v', ['verbose'])], [operand('SUBCOMMAND', 'text', true)], {
      subcommands: [
        sub('get-url', 'git-remote(1)', [opt('', ['push', 'all'])], [operand('NAME', 'text')]),
        sub('show', 'git-remote(1)', [opt('n', [])], [operand('NAME', 'text', true)], { requires: [{ all: ['-n'], why: 'without -n it connects to the remote, whose URL may be any address (git remote show <url>)' }] }),
      ],
    }),
    sub('reflog', 'git-reflog(1)', [opt('n', ['max-count'], 'required'), opt('', ['oneline']), opt('', ['date', 'format', 'pretty'], 'optional')], [operand('SUBCOMMAND', 'text', true)], {
      subcommands: [sub('show', 'git-reflog(1)', [...REVISION, opt('', ['no-textconv', 'no-ext-diff'])], REVS_AND_PATHS, { numeric: true })],
    }),
    sub('config', 'git-config(1)', [
      opt('', ['global', 'system', 'local', 'worktree', 'show-origin', 'show-scope', 'name-only', 'bool', 'int', 'bool-or-int', 'bool-or-str', 'path', 'expiry-date', 'includes', 'fixed-value']),
      opt('', ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool']), opt('l', ['list']), opt('f', ['file'], 'required', 'reads-file'), opt('', ['blob', 'default'], 'required'),
      opt('t', ['type'], 'required'), opt('z', ['null']),
      opt('', ['replace-all', 'add', 'unset', 'unset-all', 'rename-section', 'remove-section'], 'none', 'writes', 'changes the configuration'),
      opt('e', ['edit'], 'none', 'runs', 'runs an editor on the configuration'),
    ], [operand('NAME-OR-PATTERN', 'text', true)], {
      requires: [{ all: [], any: ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '--list'], why: 'without one of them it sets a value' }],
    }),
  ],
};
