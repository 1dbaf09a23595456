/**
 * One git configuration override of {@link BASH_ENVIRONMENT}: set with `GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>` and
 * `GIT_CONFIG_VALUE_<n>` (git-config(1), ENVIRONMENT), which git reads as command-line configuration: it beats the
 * repository's, the user's and the system's files, and only a `-c` or `--config-env` on the command itself beats it.
 */
export interface GitConfigOverride {
  readonly key: string;
  readonly value: string;
  /** What a model-written configuration could otherwise make git run. */
  readonly closes: string;
}

/** The git settings every Bash call overrides (git-config(1), each key's entry). */
export const GIT_CONFIG_OVERRIDES: readonly GitConfigOverride[] = Object.freeze([
  { key: 'core.fsmonitor', value: 'false', closes: 'the file-system monitor hook git status, diff and add run (a command in core.fsmonitor)' },
  { key: 'core.pager', value: 'cat', closes: 'the pager git log, show and diff start' },
  { key: 'core.hooksPath', value: '/dev/null', closes: 'hooks from a folder the configuration names (commit, checkout and merge hooks)' },
  { key: 'diff.external', value: '', closes: 'the external diff program git diff runs' },
  { key: 'core.sshCommand', value: 'ssh', closes: 'the ssh command git fetch, pull and push run' },
  { key: 'safe.bareRepository', value: 'explicit', closes: 'a folder holding HEAD, config, objects/ and refs/ (written by the model) being taken as a repository whose configuration git obeys' },
].map((o) => Object.freeze(o)));

/**
 * The variables every Bash call sets, over the sandbox policy's: pagers off, git's system and user configuration
 * off, git's optional locks off, and {@link GIT_CONFIG_OVERRIDES}. See docs/shell-analysis.md for what each closes and
 * what it cannot (a `-c` on the command line, `alias.*`, `diff.<driver>.textconv`).
 */
export const BASH_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  // less(1): an empty LESSOPEN or LESSCLOSE is no preprocessor.
  LESSOPEN: '',
  LESSCLOSE: '',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_COUNT: String(GIT_CONFIG_OVERRIDES.length),
  ...Object.fromEntries(GIT_CONFIG_OVERRIDES.flatMap((o, n) => [[`GIT_CONFIG_KEY_${n}`, o.key], [`GIT_CONFIG_VALUE_${n}`, o.value]])),
});
