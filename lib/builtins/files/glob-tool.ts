import { deepFreeze } from '../../schema/deep-freeze';
import { PermissionDecision } from '../../permissions/permission-decision';
import type { PermissionContext } from '../../permissions/permission-context';
import type { ActionResult } from '../../result';
import { ToolEffect } from '../../tool/tool-effect';
import type { Entry } from '../../workspace/entry';
import { relative } from 'node:path';
import { isWithin } from '../../fs/path-within';
import { resolveRealPath } from '../../fs/resolve-real-path';
import { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES } from './credential-paths';
import type { RuleBehavior } from '../../permissions/permission-rule';
import type { ToolInvocation } from '../../tool/agent-state';
import { BuiltinToolError } from './errors';
import { failed, failedFrom } from './failure';
import { LEFT_OUT_NOTE, MultiFileRules } from './rule-exclusions';
import { FilePathTool } from './file-path-tool';
import type { FileToolOptions } from './file-tool-options';
import type { PathPermissions } from './path-permissions';

/** Default `head_limit` of Glob. */
export const GLOB_DEFAULT_LIMIT = 100;
/** Largest `head_limit` of Glob. */
export const GLOB_MAX_LIMIT = 1000;
/** Default time a Glob call may take (walk and matching) before it is stopped, in milliseconds. */
export const GLOB_DEFAULT_TIMEOUT_MS = 30_000;

/** Options of {@link GlobTool}. */
export interface GlobToolOptions extends FileToolOptions {
  /** Time a call may take before it is stopped, in milliseconds (default {@link GLOB_DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
}

/** The JSON Schema of the `Glob` tool's params: `pattern`, optional `path` and `head_limit`. */
export const GlobInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['pattern'],
  properties: {
    pattern: {
      description: 'Glob pattern relative to the search folder: *, **, ?, [abc], {a,b} (for example "src/**/*.ts").',
      type: 'string',
    },
    path: {
      description: 'The folder to search in, relative to the workspace root (default the root).',
      type: 'string',
    },
    head_limit: { minimum: 1, maximum: GLOB_MAX_LIMIT, description: `Most paths to return (default ${GLOB_DEFAULT_LIMIT}).`, type: 'integer' },
  },
} as const);

/** The params of a Glob call, as {@link GlobInput} describes them. */
export type GlobParams = { pattern: string; path?: string; head_limit?: number };

const DESCRIPTION =
  'Finds files of the workspace whose path matches a glob pattern (hidden files included, folders and links left ' +
  'out), newest first, one root-relative path per line.';

/**
 * The built-in `Glob` tool over a {@link workspace!Workspace}: files only, newest first (modification time), at most
 * `head_limit` paths with a note when more matched. Read-only and concurrency-safe, except that a search in a
 * credential folder, or a pattern that names credential files, is not read-only and asks (see docs/builtins.md).
 */
export class GlobTool extends FilePathTool<typeof GlobInput> {
  readonly #credentialNames: readonly string[];
  readonly #rules: MultiFileRules;
  readonly #timeoutMs: number;

  /** @throws BuiltinToolError `INVALID_BUILTIN_OPTION` for a `timeoutMs` that is not a positive integer. */
  constructor(options: GlobToolOptions) {
    const timeout = options.timeoutMs ?? GLOB_DEFAULT_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeout) || timeout <= 0) {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION', `Glob's timeoutMs must be a positive integer of milliseconds; got ${String(timeout)}.`);
    }
    const names = credentialNames(options);
    super(options, (permissions) => ({
      name: options.name ?? 'Glob',
      description: DESCRIPTION,
      inputSchema: GlobInput,
      effects: [ToolEffect.READS_WORKSPACE],
      isReadOnly: true,
      isConcurrencySafe: true,
      readOnlyWhen: (input) => !touchesCredentials(input, permissions, names),
    }));
    this.#credentialNames = names;
    this.#rules = new MultiFileRules(this.name, this.permissions, options.engine);
    this.#timeoutMs = timeout;
  }

  /**
   * A rule is judged for every file the call may list: a deny rule covering the search folder denies the call, one
   * that may reach a file inside it leaves those files out when `permissions` were given (and denies the call
   * otherwise); an ask rule that covers or may reach a file asks; an allow rule must cover the whole folder.
   */
  override matchRule(content: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): boolean {
    return this.#rules.matchRule(content, searchFolder(input), context, behavior);
  }

  override checkPermissions(input: GlobParams, context: PermissionContext): PermissionDecision {
    if (touchesCredentials(input, this.permissions, this.#credentialNames)) {
      return PermissionDecision.ask(`${this.name} '${input.pattern}' searches for credential files; the user must confirm.`,
        { suggestions: this.generateSuggestions(input, context) });
    }
    return PermissionDecision.allow(`${this.name} only lists file names.`);
  }

  /** A path rule covers a Glob call when it covers the folder searched (default the root). */
  protected override judgedPath(input: Record<string, unknown>): string {
    return searchFolder(input);
  }

  protected override suggestedPath(input: Record<string, unknown>): string {
    return `${searchFolder(input)}/x`;
  }

  override async call(input: GlobParams, invocation?: ToolInvocation): Promise<string | ActionResult> {
    const folder = input.path === undefined ? '.' : this.paths.forWorkspace(input.path);
    const pattern = folder === '.' ? input.pattern : `${escapeGlob(folder)}/${input.pattern}`;
    const limit = input.head_limit ?? GLOB_DEFAULT_LIMIT;
    const where = input.path === undefined ? '' : ` in '${this.paths.display(input.path)}'`;
    const cancelled = invocation?.signal;
    const signal = cancelled === undefined ? AbortSignal.timeout(this.#timeoutMs) : AbortSignal.any([cancelled, AbortSignal.timeout(this.#timeoutMs)]);
    let entries: Entry[];
    try {
      entries = await this.paths.workspace.glob(pattern, { dot: true, signal });
    } catch (error) {
      if (signal.aborted) {
        return failed(cancelled?.aborted === true ? `${this.name} '${input.pattern}'${where} was cancelled.`
          : `${this.name} '${input.pattern}'${where} took longer than ${this.#timeoutMs} ms and was stopped. Narrow the pattern or the path.`);
      }
      return failedFrom(error, `search for '${input.pattern}'${where}`, input.pattern);
    }
    const found = entries.filter((e) => !e.isDirectory && !e.isSymlink);
    const files = this.#rules.filters ? found.filter((e) => !this.#rules.isDenied(e.path)) : found;
    const note = files.length < found.length ? LEFT_OUT_NOTE : undefined;
    files.sort((a, b) => b.modifiedMs - a.modifiedMs || (a.path < b.path ? -1 : 1));
    if (files.length === 0) return `No files match '${input.pattern}'${where}.${note === undefined ? '' : ` ${note}`}`;
    const lines = files.slice(0, limit).map((e) => e.path);
    if (files.length > limit) lines.push('', `(Showing ${limit} of ${files.length} files, newest first. Narrow the pattern or raise head_limit.)`);
    if (note !== undefined) lines.push('', note);
    return lines.join('\n');
  }
}

function searchFolder(input: Record<string, unknown>): string {
  return typeof input.path === 'string' && input.path !== '' ? input.path : '.';
}

/** Escapes glob syntax in a literal folder name, so `app/[id]` searches that folder. */
function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!@+\\]/g, '\\$&');
}

/** The names (lower case) whose mention in a pattern makes a Glob a credential search. */
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
 * Whether a Glob call looks for credentials: its folder is a credential path, or its folder and pattern together
 * name a credential file or folder (`**\/.env*`, `.ssh/*`, `**\/credentials` in `.aws`), the folder taken both as
 * written and with its links resolved. Glob lists names, never contents; this check keeps a search aimed at secrets
 * from running unasked.
 */
function touchesCredentials(input: Record<string, unknown>, permissions: PathPermissions, names: readonly string[]): boolean {
  if (typeof input.pattern !== 'string') return false;
  const folder = searchFolder(input);
  if (permissions.isCredential(folder)) return true;
  const absolute = permissions.paths.absolute(folder);
  let real: string;
  try {
    real = resolveRealPath(absolute);
  } catch {
    return true;
  }
  const pattern = input.pattern.toLowerCase().replace(/\\/g, '');
  // Judged relative to the root when inside it, so a project that itself lives under such a name still globs freely.
  return [absolute, real].map((where) => (isWithin(permissions.paths.root, where) ? relative(permissions.paths.root, where) : where)).some((where) => {
    const text = `${where.toLowerCase()}/${pattern}`;
    return names.some((name) => text.includes(name));
  });
}
