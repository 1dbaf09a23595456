import { basename } from './analyze-command';
import { dynamicWord, type ShellWord } from './shell-word';
import { gitSubcommandView } from './wrappers';

/**
 * The commands git runs without looking for an alias: its built-in commands and the programs of its exec path, as
 * `git --list-cmds=builtins,main` of git 2.39.5 lists them (the commands of `git help -a` that this git really has;
 * the guides and the commands it only documents, such as `svn`, `p4` or `send-email` when not installed, left
 * out). git(1): "aliases that hide existing Git commands are ignored", so only a name outside this list may be an
 * alias (`alias.<name>` from `-c`, `--config-env`, `GIT_CONFIG_*` or any configuration file) or an external
 * `git-<name>` program on the PATH. A newer git's new command is outside the list, so it counts as a possible
 * alias: that errs on the side of deny rules.
 */
export const GIT_COMMANDS: ReadonlySet<string> = new Set([
  'add', 'add--interactive', 'am', 'annotate', 'apply', 'archive', 'bisect', 'bisect--helper', 'blame', 'branch',
  'bugreport', 'bundle', 'cat-file', 'check-attr', 'check-ignore', 'check-mailmap', 'check-ref-format', 'checkout',
  'checkout--worker', 'checkout-index', 'cherry', 'cherry-pick', 'clean', 'clone', 'column', 'commit',
  'commit-graph', 'commit-tree', 'config', 'count-objects', 'credential', 'credential-cache',
  'credential-cache--daemon', 'credential-store', 'daemon', 'describe', 'diagnose', 'diff', 'diff-files',
  'diff-index', 'diff-tree', 'difftool', 'difftool--helper', 'env--helper', 'fast-export', 'fast-import', 'fetch',
  'fetch-pack', 'filter-branch', 'fmt-merge-msg', 'for-each-ref', 'for-each-repo', 'format-patch', 'fsck',
  'fsck-objects', 'fsmonitor--daemon', 'gc', 'get-tar-commit-id', 'grep', 'hash-object', 'help', 'hook',
  'http-backend', 'http-fetch', 'http-push', 'imap-send', 'index-pack', 'init', 'init-db', 'instaweb',
  'interpret-trailers', 'log', 'ls-files', 'ls-remote', 'ls-tree', 'mailinfo', 'mailsplit', 'maintenance', 'merge',
  'merge-base', 'merge-file', 'merge-index', 'merge-octopus', 'merge-one-file', 'merge-ours', 'merge-recursive',
  'merge-recursive-ours', 'merge-recursive-theirs', 'merge-resolve', 'merge-subtree', 'merge-tree', 'mergetool',
  'mktag', 'mktree', 'multi-pack-index', 'mv', 'name-rev', 'notes', 'pack-objects', 'pack-redundant', 'pack-refs',
  'patch-id', 'pickaxe', 'prune', 'prune-packed', 'pull', 'push', 'quiltimport', 'range-diff', 'read-tree',
  'rebase', 'receive-pack', 'reflog', 'remote', 'remote-ext', 'remote-fd', 'remote-ftp', 'remote-ftps',
  'remote-http', 'remote-https', 'repack', 'replace', 'request-pull', 'rerere', 'reset', 'restore', 'rev-list',
  'rev-parse', 'revert', 'rm', 'send-pack', 'sh-i18n--envsubst', 'shell', 'shortlog', 'show', 'show-branch',
  'show-index', 'show-ref', 'sparse-checkout', 'stage', 'stash', 'status', 'stripspace', 'submodule',
  'submodule--helper', 'subtree', 'switch', 'symbolic-ref', 'tag', 'unpack-file', 'unpack-objects', 'update-index',
  'update-ref', 'update-server-info', 'upload-archive', 'upload-archive--writer', 'upload-pack', 'var',
  'verify-commit', 'verify-pack', 'verify-tag', 'version', 'web--browse', 'whatchanged', 'worktree', 'write-tree',
]);

/**
 * Where the subcommand of a `git` command sits, when `words` runs git (its program word's base name is `git`) and
 * the subcommand may be an alias: a literal word outside {@link GIT_COMMANDS}, after git's global options. Undefined
 * for a built-in subcommand and for none. When a word among the global options is known only at run time (`git -c
 * "$x" push`), where the subcommand sits is unknown: its index is returned.
 */
export function gitAliasAt(words: readonly ShellWord[]): number | undefined {
  const head = words[0];
  if (head === undefined || !head.literal || basename(head.text) !== 'git') return undefined;
  const view = gitSubcommandView(words);
  const at = view === undefined ? 1 : words.length - view.view.length + 1;
  const sub = words[at];
  // A global option known only at run time (`git -c "$x" push`) hides where the subcommand is.
  if (view === undefined && sub !== undefined && (!sub.literal || sub.text.startsWith('-'))) {
    const hidden = words.findIndex((w) => !w.literal);
    return hidden < 0 ? undefined : hidden;
  }
  if (sub === undefined || !sub.literal || sub.text.startsWith('-') || GIT_COMMANDS.has(sub.text)) return undefined;
  return at;
}

/**
 * `git <options> <alias> ...` as a deny or ask rule must read it: `git` then one word that may stand for any words,
 * since the alias may expand to any git command with any arguments (git-config(1), `alias.*`).
 */
export function gitAliasView(words: readonly ShellWord[], at: number): ShellWord[] {
  return [words[0]!, dynamicWord(words.slice(at).map((w) => w.text).join(' '), true)];
}
