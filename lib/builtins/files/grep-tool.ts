import { deepFreeze } from '../../schema/deep-freeze';
import { posix, relative } from 'node:path';
import { Availability } from '../../context/availability';
import { isWithin } from '../../fs/path-within';
import { PermissionDecision } from '../../permissions/permission-decision';
import type { PermissionContext } from '../../permissions/permission-context';
import type { ActionResult } from '../../result';
import { cutText } from '../../text/cut-text';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolEffect } from '../../tool/tool-effect';
import type { Sandbox } from '../../sandbox/sandbox';
import { LocalWorkspace } from '../../workspace/local/local-workspace';
import { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES } from './credential-paths';
import { BuiltinToolError } from './errors';
import { failed } from './failure';
import { FilePathTool } from './file-path-tool';
import type { FileToolOptions } from './file-tool-options';
import { credentialExclusions, VCS_FOLDERS } from './grep-exclusions';
import type { PathPermissions } from './path-permissions';
import type { RuleBehavior } from '../../permissions/permission-rule';
import { checkRipgrepOption, ripgrepPath } from './ripgrep-path';
import { LEFT_OUT_NOTE, MultiFileRules } from './rule-exclusions';
import { ContainerRipgrep, HostRipgrep, isContainerWorkspace, SandboxRipgrep, type RipgrepBackend } from './ripgrep-backends';

export { ripgrepPath } from './ripgrep-path';

/** Default `head_limit` of Grep (result lines, file paths or counts). */
export const GREP_DEFAULT_LIMIT = 250;
/** Largest `head_limit` of Grep. */
export const GREP_MAX_LIMIT = 5000;
/** Longest answer Grep hands the model, in UTF-16 code units. */
export const GREP_MAX_OUTPUT = 30_000;
/** Default time a search may take before ripgrep is killed. */
export const GREP_DEFAULT_TIMEOUT_MS = 60_000;
/** Most output read from ripgrep (bytes); past it ripgrep is killed and the answer says the total is unknown. */
const MAX_RG_OUTPUT = 16 * 1024 * 1024;
/** Longest line ripgrep prints whole; longer ones are shown as a preview of this many characters. */
const MAX_COLUMNS = 500;

/** The JSON Schema of the `Grep` tool's params (a ripgrep search: `pattern`, `path`, `glob`, output mode, limits). */
export const GrepInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['pattern'],
  properties: {
    pattern: {
      minLength: 1,
      description: 'Regular expression to search file contents for (ripgrep syntax, for example "log.*Error" or "function\\s+\\w+").',
      type: 'string',
    },
    path: {
      description: 'File or folder to search, relative to the workspace root (default the root).',
      type: 'string',
    },
    glob: {
      description: 'Only files whose path matches this glob (for example "*.ts" or "src/**/*.{ts,tsx}").',
      type: 'string',
    },
    type: {
      pattern: '^[A-Za-z0-9_+.-]+$',
      description: 'Only files of this ripgrep type (for example "ts", "py", "rust").',
      type: 'string',
    },
    output_mode: {
      description: '"files_with_matches" (default): paths of matching files; "content": matching lines; "count": matching lines per file.',
      anyOf: [
        { const: 'content', type: 'string' },
        { const: 'files_with_matches', type: 'string' },
        { const: 'count', type: 'string' },
      ],
    },
    after_context: {
      minimum: 0,
      maximum: 100,
      description: 'Lines to show after each match, like grep -A (content mode only).',
      type: 'integer',
    },
    before_context: {
      minimum: 0,
      maximum: 100,
      description: 'Lines to show before each match, like grep -B (content mode only).',
      type: 'integer',
    },
    context: {
      minimum: 0,
      maximum: 100,
      description: 'Lines to show before and after each match, like grep -C (content mode only).',
      type: 'integer',
    },
    line_number: { description: 'Show line numbers (content mode only; default true).', type: 'boolean' },
    ignore_case: { description: 'Case-insensitive search, like grep -i.', type: 'boolean' },
    multiline: { description: 'Let the pattern span lines ("." matches newlines too).', type: 'boolean' },
    head_limit: { minimum: 1, maximum: GREP_MAX_LIMIT, description: `Most result lines to return (default ${GREP_DEFAULT_LIMIT}).`, type: 'integer' },
    offset: {
      minimum: 0,
      description: 'Result lines to skip first, to page through a long result (default 0).',
      type: 'integer',
    },
  },
} as const);

/** The params of a Grep call, as {@link GrepInput} describes them. */
export type GrepParams = {
  pattern: string;
  path?: string;
  glob?: string;
  type?: string;
  output_mode?: 'content' | 'files_with_matches' | 'count';
  after_context?: number;
  before_context?: number;
  context?: number;
  line_number?: boolean;
  ignore_case?: boolean;
  multiline?: boolean;
  head_limit?: number;
  offset?: number;
};

/** What {@link GrepTool} takes besides the file tools' options. */
export interface GrepToolOptions extends FileToolOptions {
  /**
   * Absolute path of the ripgrep binary where it runs. On the host (a LocalWorkspace alone), default: the one
   * `@vscode/ripgrep` ships, found on first use. Inside a `sandbox`, a path there; default: {@link SANDBOX_RIPGREP_PATH}
   * (see {@link ripgrepMount}) when present, else `rg` on the sandbox's `PATH`. Inside a container workspace, a path
   * in the container; default: the container's own `rg`, else a copy of `@vscode/ripgrep`'s Linux binary written to
   * {@link CONTAINER_RIPGREP_PATH} on first use.
   */
  readonly rgPath?: string;
  /**
   * Runs ripgrep inside this sandbox instead of on the host (with a LocalWorkspace, whose root the sandbox must see:
   * a `BubblewrapSandbox` with the root among its policy's paths, or a `DockerSandbox` whose working directory holds
   * it). Not for a container workspace, which already searches inside its container.
   */
  readonly sandbox?: Sandbox;
  /** Time a search may take before ripgrep is killed (default {@link GREP_DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
}

const DESCRIPTION =
  'Searches file contents of the workspace with a regular expression (ripgrep). Hidden files are searched; ' +
  'version-control folders, ignored files (.gitignore) and credential files are not. Results are in path order; use ' +
  'head_limit and offset to page through long results.';

/**
 * The built-in `Grep` tool: ripgrep over the workspace, where the workspace's files are. Over a {@link LocalWorkspace}
 * it runs on the host, or inside `options.sandbox` when given (a bubblewrap sandbox: ripgrep bound in with
 * {@link ripgrepMount}); over a container workspace (`DockerWorkspace`) it runs inside the container through argv
 * execs, with container paths, using the container's `rg` or a copy of `@vscode/ripgrep`'s Linux binary. Any other
 * workspace leaves it unavailable. The answer's text is the same on every backend.
 * On the host ripgrep runs without a shell, with an empty environment; everywhere it runs with `--no-config`, and the
 * pattern, glob and type are passed as `--opt=value` words and the path after `--`, so none can be read as an option. The searched path must stay inside
 * the workspace root once links are resolved; ripgrep does not follow links while it walks. Credential files
 * (`.env`, `.ssh/`, ...) are excluded from every search; a call whose path or glob names credentials is not
 * read-only and asks, and once allowed it searches them. Read-only and concurrency-safe otherwise.
 */
export class GrepTool extends FilePathTool<typeof GrepInput> {
  readonly #backend: RipgrepBackend | undefined;
  readonly #timeoutMs: number;
  readonly #names: readonly string[];
  readonly #exclusions: readonly string[];
  readonly #rules: MultiFileRules;
  /** Whether ripgrep runs on the host from `@vscode/ripgrep` (no `rgPath`, no sandbox). */
  readonly #hostRipgrep: boolean;
  /** Whether the workspace is one Grep can search (a LocalWorkspace or a container workspace). */
  readonly #workspaceKind: boolean;
  /** See {@link unavailableReason}; null until computed. */
  #unavailable: string | undefined | null = null;

  /**
   * @throws BuiltinToolError `INVALID_BUILTIN_OPTION` for an unusable root, `rgPath` or `timeoutMs`, or a `sandbox`
   *   given with a workspace that is not a LocalWorkspace.
   */
  constructor(options: GrepToolOptions) {
    const { workspace } = options;
    const local = workspace instanceof LocalWorkspace;
    const container = !local && isContainerWorkspace(workspace);
    const names = credentialNames(options);
    let why: () => string | undefined = () => undefined;
    super(options, (permissions) => ({
      name: options.name ?? 'Grep',
      description: DESCRIPTION,
      inputSchema: GrepInput,
      effects: [ToolEffect.READS_WORKSPACE],
      isReadOnly: true,
      isConcurrencySafe: true,
      readOnlyWhen: (input) => !touchesCredentials(input, permissions, names),
      availableWhen: new Availability(() => (local || container) && why() === undefined),
    }));
    why = () => this.unavailableReason;
    const timeout = options.timeoutMs ?? GREP_DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeout) || timeout <= 0) {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION', `Grep's timeoutMs must be a positive integer of milliseconds; got ${String(timeout)}.`);
    }
    if (options.sandbox !== undefined && !local) {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION', 'Grep runs in a sandbox only over a LocalWorkspace (whose root the sandbox sees); a container workspace searches inside its own container.');
    }
    const rgPath = checkRipgrepOption(options.rgPath);
    this.#hostRipgrep = local && options.sandbox === undefined && rgPath === undefined;
    this.#workspaceKind = local || container;
    this.#timeoutMs = timeout;
    this.#names = names;
    if (local) {
      const realRoot = workspace.root;
      this.#backend = options.sandbox === undefined ? new HostRipgrep(realRoot, rgPath, this.name) : new SandboxRipgrep(options.sandbox, realRoot, rgPath, this.name);
    } else if (container) {
      this.#backend = new ContainerRipgrep(workspace, rgPath, this.name);
    }
    this.#exclusions = this.#backend === undefined ? [] : credentialExclusions(this.paths.root, options.credentialPaths);
    this.#rules = new MultiFileRules(this.name, this.permissions, options.engine);
  }

  /**
   * A rule is judged for every file the call may read: a deny rule covering the search folder denies the call, one
   * that may reach a file inside it leaves those files out when `permissions` were given (and denies the call
   * otherwise); an ask rule that covers or may reach a file asks; an allow rule must cover the whole folder.
   */
  override matchRule(content: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): boolean {
    return this.#rules.matchRule(content, searchPath(input), context, behavior);
  }

  /**
   * Why the tool is not offered to the model, for the developer; undefined when it is. It is not offered over a
   * workspace that is neither a LocalWorkspace nor a container workspace, nor, on the host without `rgPath`, when
   * `@vscode/ripgrep` cannot be found (a model could not act on that failure). Computed once; the first time it is not
   * offered, a process warning (`AGENTTOOLKIT_GREP_UNAVAILABLE`) says why.
   */
  get unavailableReason(): string | undefined {
    if (this.#unavailable === null) {
      let reason: string | undefined;
      if (!this.#workspaceKind) reason = `${this.name} is not offered: it runs ripgrep where the files are and needs a LocalWorkspace or a container workspace (DockerWorkspace).`;
      else if (this.#hostRipgrep) {
        try {
          ripgrepPath();
        } catch (error) {
          reason = `${this.name} is not offered: ${(error as Error).message}`;
        }
      }
      this.#unavailable = reason;
      if (reason !== undefined && this.#hostRipgrep) process.emitWarning(reason, { code: 'AGENTTOOLKIT_GREP_UNAVAILABLE' });
    }
    return this.#unavailable;
  }

  override checkPermissions(input: GrepParams, context: PermissionContext): PermissionDecision {
    if (touchesCredentials(input, this.permissions, this.#names)) {
      return PermissionDecision.ask(`${this.name} '${input.pattern}' in '${this.paths.display(searchPath(input))}' searches credential files; the user must confirm.`,
        { suggestions: this.generateSuggestions(input, context) });
    }
    return PermissionDecision.allow(`${this.name} only reads (credential files excluded).`);
  }

  /** A path rule covers a Grep call when it covers the file or folder searched (default the root). */
  protected override judgedPath(input: Record<string, unknown>): string {
    return searchPath(input);
  }

  protected override suggestedPath(input: Record<string, unknown>): string {
    return `${searchPath(input)}/x`;
  }

  override async call(input: GrepParams, invocation: ToolInvocation): Promise<string | ActionResult> {
    const backend = this.#backend;
    if (backend === undefined) return failed(`${this.name} runs ripgrep where the files are and needs a LocalWorkspace or a container workspace (DockerWorkspace); this workspace is neither.`);
    const shown = input.path === undefined ? undefined : this.paths.display(input.path);
    const path = searchPath(input);
    const absolute = this.paths.absolute(path);
    const refused = failed(`Refused: '${path}' is outside the workspace; ${this.name} searches only inside it.`);
    if (path.includes('\0') || !isWithin(this.paths.root, absolute)) return refused;
    const located = await backend.locate(absolute, posix.relative(this.paths.root, absolute) || '.');
    if ('refused' in located) return refused;
    if ('unresolvable' in located) return failed(`'${path}' cannot be resolved (${located.unresolvable}).`);
    if ('failure' in located) return failed(located.failure);
    const credentialSearch = touchesCredentials(input, this.permissions, this.#names);
    const filtering = this.#rules.filters;
    const args = this.#arguments(input, credentialSearch, located.target, filtering);
    const signal = AbortSignal.any([invocation.signal, AbortSignal.timeout(this.#timeoutMs)]);
    const run = await backend.run(args, located.cwd, signal, MAX_RG_OUTPUT);
    const where = shown === undefined ? '' : ` in '${shown}'`;
    if (run.failure !== undefined) return failed(run.failure);
    if (run.stopped === 'spawn') return failed(`RIPGREP_NOT_FOUND: ${run.spawnError}`);
    if (run.stopped === 'abort') {
      return failed(invocation.signal.aborted ? `${this.name} '${input.pattern}'${where} was cancelled.`
        : `${this.name} '${input.pattern}'${where} took longer than ${this.#timeoutMs} ms and was stopped. Narrow the path, glob or type.`);
    }
    const errors = run.stderr.trim();
    const kept = filtering ? withoutDenied(run.stdout, input.output_mode ?? 'files_with_matches', located.target === '.', (file) => this.#rules.isDenied(file)) : { stdout: run.stdout, leftOut: false };
    const lines = outputLines(kept.stdout, located.target === '.', run.stopped === 'output');
    const note = kept.leftOut ? `\n\n${LEFT_OUT_NOTE}` : '';
    if (kept.leftOut && lines.length === 0) return `No matches for '${input.pattern}'${where}.${note}`;
    if (run.code === 1 || (run.code === 0 && lines.length === 0)) return `No matches for '${input.pattern}'${where}.`;
    if (lines.length === 0) return failed(`${this.name} '${input.pattern}'${where} failed: ${errors || `ripgrep exited with code ${String(run.code)}`}`);
    const text = page(lines, input, run.stopped === 'output');
    const warning = errors === '' ? '' : `\n\n(Some files could not be searched: ${cutText(errors, 1000)})`;
    return cutText(text + note + warning, GREP_MAX_OUTPUT, '\n... (output cut; narrow the search or lower head_limit)');
  }

  #arguments(input: GrepParams, credentialSearch: boolean, target: string, withNull: boolean): string[] {
    const mode = input.output_mode ?? 'files_with_matches';
    const args = ['--no-config', '--hidden', '--color=never', '--no-heading', '--with-filename', '--sort=path', `--max-columns=${MAX_COLUMNS}`, '--max-columns-preview'];
    // Each printed path followed by a NUL, so that files a deny rule covers can be told apart and left out.
    if (withNull) args.push('--null');
    if (mode === 'files_with_matches') args.push('--files-with-matches');
    else if (mode === 'count') args.push('--count');
    else {
      args.push(input.line_number === false ? '--no-line-number' : '--line-number');
      if (input.context !== undefined) args.push(`--context=${input.context}`);
      if (input.after_context !== undefined) args.push(`--after-context=${input.after_context}`);
      if (input.before_context !== undefined) args.push(`--before-context=${input.before_context}`);
    }
    if (input.ignore_case === true) args.push('--ignore-case');
    if (input.multiline === true) args.push('--multiline', '--multiline-dotall');
    if (input.type !== undefined) args.push(`--type=${input.type}`);
    // Later globs win in ripgrep: the exclusions come after the model's glob, so it cannot bring them back.
    if (input.glob !== undefined) args.push(`--glob=${input.glob}`);
    for (const folder of VCS_FOLDERS) args.push(`--glob=!${folder}`);
    if (!credentialSearch) args.push(...this.#exclusions);
    args.push(`--regexp=${input.pattern}`, '--', target);
    return args;
  }
}

function searchPath(input: Record<string, unknown>): string {
  return typeof input.path === 'string' && input.path !== '' ? input.path : '.';
}

/**
 * ripgrep's `--null` output without the files `denied` covers, in the form ripgrep prints without `--null`
 * (`path:line:text`, a context line `path-line-text`, `path:count`, one path per line), and whether any was left out.
 * `denied` gets the path relative to the workspace root.
 */
function withoutDenied(stdout: string, mode: string, fromRoot: boolean, denied: (file: string) => boolean): { stdout: string; leftOut: boolean } {
  const rootRelative = (path: string) => (fromRoot && path.startsWith('./') ? path.slice(2) : path);
  let leftOut = false;
  const keep = (path: string) => {
    if (!denied(rootRelative(path))) return true;
    leftOut = true;
    return false;
  };
  if (mode === 'files_with_matches') {
    const paths = stdout.split('\0');
    const last = paths.pop()!;
    const kept = paths.filter(keep);
    return { stdout: kept.map((p) => `${p}\n`).join('') + last, leftOut };
  }
  const out: string[] = [];
  for (const line of stdout.split('\n')) {
    const cut = line.indexOf('\0');
    if (cut < 0) {
      // A group separator (`--`), or the empty string after the last newline.
      if (line !== '--' || (out.length > 0 && out[out.length - 1] !== '--')) out.push(line);
      continue;
    }
    const path = line.slice(0, cut);
    if (!keep(path)) continue;
    const rest = line.slice(cut + 1);
    out.push(`${path}${/^\d+-/.test(rest) ? '-' : ':'}${rest}`);
  }
  while (out.length > 1 && out[out.length - 2] === '--') out.splice(out.length - 2, 1);
  if (out[0] === '--') out.shift();
  return { stdout: out.join('\n'), leftOut };
}

/** ripgrep's lines, `./` dropped when the root was searched, a last partial line dropped when output was cut. */
function outputLines(stdout: string, fromRoot: boolean, cut: boolean): string[] {
  const lines = stdout.split('\n');
  if (cut || lines[lines.length - 1] === '') lines.pop();
  return fromRoot ? lines.map((line) => (line.startsWith('./') ? line.slice(2) : line)) : lines;
}

function page(lines: readonly string[], input: GrepParams, cut: boolean): string {
  const mode = input.output_mode ?? 'files_with_matches';
  const offset = input.offset ?? 0;
  const limit = input.head_limit ?? GREP_DEFAULT_LIMIT;
  const total = lines.length;
  const totalText = cut ? `at least ${total}` : String(total);
  if (offset >= total) return `No results at offset ${offset} (${totalText} in all).`;
  const shown = lines.slice(offset, offset + limit);
  const end = offset + shown.length;
  const parts: string[] = [];
  if (mode === 'files_with_matches') parts.push(`Found ${totalText} file${total === 1 && !cut ? '' : 's'}`);
  parts.push(...shown);
  if (mode === 'count' && !cut && offset === 0 && end === total) {
    const sum = lines.reduce((n, line) => n + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
    parts.push('', `(${sum} matching line${sum === 1 ? '' : 's'} in ${total} file${total === 1 ? '' : 's'}.)`);
  }
  if (end < total || offset > 0 || cut) {
    const unit = mode === 'content' ? 'lines' : 'files';
    const more = end < total ? ` Pass offset: ${end} for the next page.` : '';
    const why = cut ? ' ripgrep printed too much and was stopped, so the total is unknown: narrow the search.' : '';
    parts.push('', `(Showing ${unit} ${offset + 1}-${end} of ${totalText}.${more}${why})`);
  }
  return parts.join('\n');
}

/** The names (lower case) whose mention in a glob makes a Grep a credential search. */
function credentialNames(options: FileToolOptions): string[] {
  const entries = [...CREDENTIAL_FILES, ...CREDENTIAL_DIRECTORIES, ...(options.credentialPaths?.files ?? []), ...(options.credentialPaths?.directories ?? [])];
  // An entry under `.config` keeps its rest (`gh/hosts.yml`): its first segment alone (`gh`) is too common a text.
  const names = entries.map((entry) => {
    const segments = entry.toLowerCase().split('/').filter((s) => s !== '');
    return segments[0] === '.config' ? segments.slice(1).join('/') : segments[0]!;
  });
  return [...new Set(names.filter((name) => name !== ''))];
}

/**
 * Whether a Grep call aims at credentials: its path is a credential path (as written or with links resolved), or
 * its glob, taken with the path, names a credential file or folder (`.env*`, `**\/.ssh/*`, `credentials` in
 * `.aws`). Such a call asks and, once allowed, searches without the credential exclusions.
 */
function touchesCredentials(input: Record<string, unknown>, permissions: PathPermissions, names: readonly string[]): boolean {
  const path = searchPath(input);
  if (permissions.isCredential(path)) return true;
  if (typeof input.glob !== 'string') return false;
  const absolute = permissions.paths.absolute(path);
  const where = isWithin(permissions.paths.root, absolute) ? relative(permissions.paths.root, absolute) : absolute;
  const text = `${where.toLowerCase()}/${input.glob.toLowerCase().replace(/\\/g, '')}`;
  return names.some((name) => text.includes(name));
}
