/**
 * One file or folder an agent must not change without the user's say-so, because a program reads it later and runs
 * what it says (a shell start-up file, a git hook, a CI workflow, an editor's init file) or because it holds keys.
 */
export interface DangerousPathEntry {
  /**
   * The path, `/`-separated. A file entry matches a path that ends with these segments (`.ssh/config` matches
   * `/home/a/.ssh/config`); a folder entry matches any path with these segments in a row (so `.husky` covers
   * `sub/.husky/pre-commit` too). Compared without regard to case.
   */
  readonly path: string;
  readonly kind: 'file' | 'directory';
  /** Why a change there is dangerous: what runs it, and when. */
  readonly reason: string;
  /** The program that reads it. */
  readonly readBy: string;
  /** Where that program documents it (its manual). */
  readonly source: string;
}

const BASH = 'https://www.gnu.org/software/bash/manual/bash.html#Bash-Startup-Files';
const ZSH = 'https://zsh.sourceforge.io/Doc/Release/Files.html#Startup_002fShutdown-Files';
const TCSH = 'https://linux.die.net/man/1/tcsh';
const GIT_CONFIG = 'https://git-scm.com/docs/git-config#FILES';
const VIM = 'https://vimhelp.org/starting.txt.html#initialization';
const NVIM = 'https://neovim.io/doc/user/starting.html#initialization';
const SSH = 'https://man.openbsd.org/ssh_config';

const file = (path: string, reason: string, readBy: string, source: string): DangerousPathEntry => Object.freeze({ path, kind: 'file', reason, readBy, source });
const folder = (path: string, reason: string, readBy: string, source: string): DangerousPathEntry => Object.freeze({ path, kind: 'directory', reason, readBy, source });

/**
 * The built-in dangerous paths, each with its reason and the manual of the program that reads it. Writing or editing
 * one (Write, Edit, a Bash redirection) is a bypass-immune ASK. `.env` also covers its family (`.env.local`, ...).
 */
export const DANGEROUS_PATHS: readonly DangerousPathEntry[] = Object.freeze([
  file('.bashrc', 'run by every interactive bash', 'bash', BASH),
  file('.bash_profile', 'run by a bash login shell', 'bash', BASH),
  file('.bash_login', 'run by a bash login shell when .bash_profile is missing', 'bash', BASH),
  file('.bash_logout', 'run when a bash login shell exits', 'bash', BASH),
  file('.profile', 'run by sh, dash and bash login shells', 'sh (POSIX), bash', BASH),
  file('.zshenv', 'run by every zsh, scripts included', 'zsh', ZSH),
  file('.zprofile', 'run by a zsh login shell', 'zsh', ZSH),
  file('.zshrc', 'run by every interactive zsh', 'zsh', ZSH),
  file('.zlogin', 'run by a zsh login shell', 'zsh', ZSH),
  file('.zlogout', 'run when a zsh login shell exits', 'zsh', ZSH),
  file('.cshrc', 'run by every csh and tcsh', 'csh, tcsh', TCSH),
  file('.tcshrc', 'run by every tcsh', 'tcsh', TCSH),
  file('.login', 'run by a csh or tcsh login shell', 'csh, tcsh', TCSH),
  file('.logout', 'run when a csh or tcsh login shell exits', 'csh, tcsh', TCSH),
  file('.kshrc', 'run by every interactive ksh (through ENV)', 'ksh', 'https://man.openbsd.org/ksh#FILES'),
  folder('.config/fish', 'config.fish, conf.d/ and functions/ run in every fish', 'fish', 'https://fishshell.com/docs/current/language.html#configuration-files'),
  file('.pam_environment', 'sets the environment of every login session (LD_PRELOAD, PATH)', 'pam_env', 'https://man7.org/linux/man-pages/man8/pam_env.8.html'),
  folder('.config/environment.d', 'sets the environment of the user\'s systemd services', 'systemd', 'https://www.freedesktop.org/software/systemd/man/latest/environment.d.html'),
  folder('.config/systemd', 'user units that systemd starts (at login, on a timer)', 'systemd --user', 'https://www.freedesktop.org/software/systemd/man/latest/systemd.unit.html'),
  folder('.local/share/systemd', 'user units that systemd starts (at login, on a timer)', 'systemd --user', 'https://www.freedesktop.org/software/systemd/man/latest/systemd.unit.html'),
  folder('.config/autostart', 'desktop entries run when the desktop session starts', 'XDG autostart', 'https://specifications.freedesktop.org/autostart-spec/latest/'),
  file('.xinitrc', 'run by startx as the X session', 'xinit', 'https://man.archlinux.org/man/xinit.1'),
  file('.xprofile', 'run when a display manager starts the X session', 'display managers (GDM, SDDM, LightDM)', 'https://wiki.archlinux.org/title/Xprofile'),
  file('.xsession', 'run as the X session', 'Xsession', 'https://manpages.debian.org/stable/x11-common/Xsession.5.en.html'),
  file('.vimrc', 'Vim script run at every Vim start', 'vim', VIM),
  file('.gvimrc', 'Vim script run at every GUI Vim start', 'gvim', VIM),
  file('.exrc', 'ex commands run at every vi and Vim start', 'vi, vim', VIM),
  folder('.vim', 'plugin/ and ftplugin/ scripts run by Vim', 'vim', VIM),
  folder('.config/nvim', 'init.lua, init.vim and plugins run at every Neovim start', 'nvim', NVIM),
  file('.nvimrc', 'run by Neovim from the current folder with exrc set', 'nvim', NVIM),
  file('.emacs', 'Emacs Lisp run at every Emacs start', 'emacs', 'https://www.gnu.org/software/emacs/manual/html_node/emacs/Init-File.html'),
  folder('.emacs.d', 'init.el and packages run at every Emacs start', 'emacs', 'https://www.gnu.org/software/emacs/manual/html_node/emacs/Init-File.html'),
  file('.gitconfig', 'aliases, hooksPath, core.fsmonitor, core.sshCommand and filters run commands', 'git', GIT_CONFIG),
  folder('.config/git', 'git\'s XDG configuration (config, attributes): runs commands like .gitconfig', 'git', GIT_CONFIG),
  file('.gitmodules', 'submodule URLs and update commands that git fetches and runs', 'git', 'https://git-scm.com/docs/gitmodules'),
  folder('.git', 'hooks/ run on commit, merge and checkout; config runs commands', 'git', 'https://git-scm.com/docs/githooks'),
  folder('.husky', 'git hooks that husky installs (pre-commit, pre-push)', 'husky', 'https://typicode.github.io/husky/'),
  file('.pre-commit-config.yaml', 'hooks that pre-commit runs on every commit', 'pre-commit', 'https://pre-commit.com/#plugins'),
  folder('.github/workflows', 'workflows that GitHub Actions runs with the repository\'s secrets', 'GitHub Actions', 'https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions'),
  file('.gitlab-ci.yml', 'pipelines that GitLab CI runs with the project\'s secrets', 'GitLab CI/CD', 'https://docs.gitlab.com/ci/yaml/'),
  folder('.vscode', 'tasks.json and settings run commands in VS Code', 'VS Code', 'https://code.visualstudio.com/docs/editor/tasks'),
  folder('.idea', 'run configurations and tool settings of JetBrains IDEs', 'JetBrains IDEs', 'https://www.jetbrains.com/help/idea/run-debug-configuration.html'),
  file('.ssh/config', 'ProxyCommand and LocalCommand run commands', 'ssh', SSH),
  file('.ssh/authorized_keys', 'grants log-in to whoever holds a listed key', 'sshd', 'https://man.openbsd.org/sshd#AUTHORIZED_KEYS_FILE_FORMAT'),
  folder('.ssh', 'keys, rc (run at every ssh log-in) and configuration', 'ssh, sshd', 'https://man.openbsd.org/sshd#FILES'),
  file('.netrc', 'passwords (and macdef macros) for ftp, curl and git', 'ftp, curl', 'https://man.openbsd.org/ftp#THE_.netrc_FILE'),
  file('.npmrc', 'registry tokens, and script-shell, which runs every npm script', 'npm', 'https://docs.npmjs.com/cli/configuring-npm/npmrc'),
  file('.pypirc', 'package index passwords', 'twine', 'https://packaging.python.org/en/latest/specifications/pypirc/'),
  file('.env', 'secrets and variables loaded into programs (family .env.*)', 'dotenv', 'https://github.com/motdotla/dotenv#readme'),
  file('.envrc', 'shell code run on entering the folder', 'direnv', 'https://direnv.net/man/direnv-stdlib.1.html'),
]);

/** The file entries of {@link DANGEROUS_PATHS}; entries with a `/` name a path suffix. */
export const DANGEROUS_FILES: readonly string[] = Object.freeze(DANGEROUS_PATHS.filter((e) => e.kind === 'file').map((e) => e.path));

/** The folder entries of {@link DANGEROUS_PATHS}: anything inside them is dangerous. */
export const DANGEROUS_DIRECTORIES: readonly string[] = Object.freeze(DANGEROUS_PATHS.filter((e) => e.kind === 'directory').map((e) => e.path));

/** Extra entries for {@link isDangerousPath}, added to the built-in lists. */
export interface DangerousPathOptions {
  readonly files?: readonly string[];
  readonly directories?: readonly string[];
}

/**
 * Whether `path` (absolute or relative, POSIX or Windows separators) names a dangerous file or lies inside a
 * dangerous directory.
 *
 * Compared by path segments, case-insensitively (case-insensitive file systems would otherwise be fooled), `.`
 * segments ignored: a file entry matches when the path ends with its segments, so `.ssh/config` matches
 * `/home/a/.ssh/config`; a directory entry matches when its segments appear in a row anywhere, the path's last
 * segment included (the folder itself). `.env` also covers its family (`.env.local`, `.env.production`, ...). A
 * `..` segment is kept as written, so `x/.git/../y` counts as inside `.git`: deciding otherwise needs the links
 * resolved, which {@link PermissionContext.isDangerousPath} does.
 */
export function isDangerousPath(path: string, options: DangerousPathOptions = {}): boolean {
  const segments = path.replace(/\\/g, '/').toLowerCase().split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return false;
  const base = segments[segments.length - 1]!;
  if (base.startsWith('.env.')) return true;
  for (const entry of options.files ? [...DANGEROUS_FILES, ...options.files] : DANGEROUS_FILES) {
    if (endsWithSegments(segments, splitEntry(entry))) return true;
  }
  for (const entry of options.directories ? [...DANGEROUS_DIRECTORIES, ...options.directories] : DANGEROUS_DIRECTORIES) {
    const dir = splitEntry(entry);
    for (let i = 0; i + dir.length <= segments.length; i++) {
      if (dir.every((part, k) => segments[i + k] === part)) return true;
    }
  }
  return false;
}

function splitEntry(entry: string): string[] {
  return entry.replace(/\\/g, '/').toLowerCase().split('/').filter((s) => s !== '' && s !== '.');
}

function endsWithSegments(segments: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length === 0 || suffix.length > segments.length) return false;
  const offset = segments.length - suffix.length;
  return suffix.every((part, k) => segments[offset + k] === part);
}
