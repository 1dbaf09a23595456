import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { SkillCatalog, SkillCatalogChanges, SkillFileEntry, SkillFiles, SkillWarning } from '@modelcontextprotocol/server/ext/skills';
import { withDirectory } from '../../../fs/directory-handle';
import { ConfinedFsError } from '../../../fs/errors';
import { isWithin } from '../../../fs/path-within';
import { readBounded } from '../../../fs/read-bounded';
import type { Skills } from '../../../skills/skills';
import { McpServerError } from '../errors';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';

/** Options of {@link mcpSkillsExtension}; each is passed to the SDK's skill catalog. */
export interface McpSkillsExtensionOptions {
  /** An organisational prefix of the URIs: `'acme'` serves `skill://acme/<skill>/SKILL.md`. Default: none. */
  prefix?: string | undefined;
  /** `ttlMs` (milliseconds) and `cacheScope` of `skills/list`, `skills/get` and skill files on 2026-07-28. Default `0` / `private`. */
  cacheHint?: { ttlMs: number; cacheScope: 'public' | 'private' } | undefined;
  /** Entries per `skills/list` page (a positive integer or `Infinity`). Default 100. */
  pageSize?: number | undefined;
  /** Where the catalog's warnings go (a skill skipped, a file over the SDK's limits). Default: `console.warn`. */
  onWarning?: ((warning: SkillWarning) => void) | undefined;
}

/** A `Skills` registry as the MCP skills extension (`io.modelcontextprotocol/skills`), built by {@link mcpSkillsExtension}. */
export interface McpSkillsExtension {
  /** The SDK's catalog (its `entries` are exactly what `skills/list` answers). */
  readonly catalog: SkillCatalog;
  /**
   * Serves the skills on an SDK v2 `McpServer`: the `skills/list` and `skills/get` methods, the `skill://` resource
   * template and the extension's capability. Call it in the server factory, before the server connects.
   * @throws Error (the SDK's) when the server is connected already or has another skills extension.
   */
  attach(server: McpSdk2ServerLike): void;
  /**
   * Reads the registry again into the catalog (call it after `skills.refresh()` or a watched change): all or nothing,
   * the old catalog keeps serving when it fails. Connected sessions get `notifications/resources/list_changed` from
   * the SDK; behind `serveHttp`, pass `listChanged` on: `if (changes.listChanged) endpoint.notify?.resourcesChanged()`.
   * @throws SkillCatalogError (the SDK's) when a file cannot be read.
   */
  reload(): Promise<SkillCatalogChanges>;
}

/** The largest skill file read, in bytes: the SDK's publication limit for a whole skill (`SKILL_LIMITS.bytes`, 16 MiB). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Serves a `Skills` registry (agenttoolkit/skills) through the MCP SDK v2's skills extension (SEP-2640,
 * `@modelcontextprotocol/server/ext/skills`): a host lists the skills (`skills/list`, each entry with the SKILL.md
 * front matter and the digest and size of every file), gets one (`skills/get`) and reads its files as `skill://`
 * resources, verifying each against the entry (the SDK's `SkillsClient` does). Beside it, `serveSkills` still serves
 * each skill as a prompt for clients without the extension.
 *
 * The catalog is built by the SDK from the registry's active skills: their SKILL.md and the resource files that
 * `skills.load()` lists (confined to the skill's root). Files are read through opened folders, refusing a name that
 * became a link or a file outside the root; a skill whose load fails is left out with a warning. One extension serves
 * any number of servers: call `attach` in each server the factory builds.
 *
 * @example
 * ```ts
 * const extension = await mcpSkillsExtension(await Skills.fromLocalDir('./skills'));
 * const endpoint = await serveHttp(() => {
 *   const server = new McpServer({ name: 'skills', version: '1.0.0' });
 *   extension.attach(server);
 *   return server;
 * });
 * ```
 * @throws McpServerError `MCP_SDK_MISSING` when `@modelcontextprotocol/server` (2.4 or later) is not installed;
 *   SkillCatalogError (the SDK's) when a file of an active skill cannot be read.
 */
export async function mcpSkillsExtension(skills: Skills, options: McpSkillsExtensionOptions = {}): Promise<McpSkillsExtension> {
  const sdk = skillsSdk();
  const onWarning = options.onWarning ?? ((warning: SkillWarning) => console.warn(`${warning.path}: ${warning.message}`));
  const given = Object.entries({ prefix: options.prefix, cacheHint: options.cacheHint, pageSize: options.pageSize }).filter(([, value]) => value !== undefined);
  const catalog = await sdk.SkillsExtension.load(new RegistryFiles(skills, onWarning), { ...Object.fromEntries(given), onWarning });
  return {
    catalog,
    attach: (server) => catalog.attach(server as never),
    reload: () => catalog.reload(),
  };
}

function skillsSdk(): typeof import('@modelcontextprotocol/server/ext/skills') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded on first use
    return require('@modelcontextprotocol/server/ext/skills') as typeof import('@modelcontextprotocol/server/ext/skills');
  } catch (error) {
    throw new McpServerError('MCP_SDK_MISSING', 'Serving skills through the MCP skills extension needs the optional peer dependency @modelcontextprotocol/server (2.4 or later): npm install @modelcontextprotocol/server', { cause: error });
  }
}

/**
 * The SDK's storage adapter over a `Skills` registry: the root lists the active skills as folders, a skill's folder
 * its SKILL.md and the resource files `skills.load()` found (as of the last walk, which `list('')` starts).
 */
class RegistryFiles implements SkillFiles {
  private files = new Map<string, ReadonlySet<string>>();

  constructor(private readonly skills: Skills, private readonly warn: (warning: SkillWarning) => void) {}

  async list(dir: string): Promise<SkillFileEntry[]> {
    if (dir === '') return this.walk();
    const [name, ...rest] = dir.split('/');
    const prefix = rest.length === 0 ? '' : `${rest.join('/')}/`;
    const children = new Map<string, SkillFileEntry['kind']>();
    for (const path of this.files.get(name!)!) { // the SDK lists only the folders this adapter named
      if (!path.startsWith(prefix)) continue;
      const [child, ...below] = path.slice(prefix.length).split('/');
      children.set(child!, below.length === 0 ? 'file' : 'directory');
    }
    return [...children].map(([child, kind]) => ({ name: child, kind }));
  }

  async read(path: string): Promise<Uint8Array> {
    const slash = path.indexOf('/');
    const name = path.slice(0, slash);
    const inSkill = path.slice(slash + 1);
    const skill = this.skills.get(name);
    if (slash < 1 || skill === undefined || this.files.get(name)?.has(inSkill) !== true) throw new ConfinedFsError('FS_NOT_FOUND', path, 'it is not a file of an active skill');
    const real = await realpath(join(skill.directory, inSkill));
    if (!isWithin(skill.root, real)) throw new ConfinedFsError('FS_OUTSIDE_ROOT', path, 'it leads out of the skills root', { realPath: real });
    const segments = relative(skill.root, dirname(real)).split(sep).filter((segment) => segment !== '');
    return withDirectory(skill.root, segments, path, async (folder) => new Uint8Array((await readBounded(folder, basename(real), path, MAX_FILE_BYTES)).bytes));
  }

  private async walk(): Promise<SkillFileEntry[]> {
    const files = new Map<string, ReadonlySet<string>>();
    for (const { name } of this.skills.list()) {
      try {
        const loaded = await this.skills.load(name);
        files.set(name, new Set(['SKILL.md', ...loaded.resources]));
      } catch (error) {
        // Skills.load throws SkillError only
        this.warn({ path: name, message: `left out: ${(error as Error).message}` });
      }
    }
    this.files = files;
    return [...files.keys()].map((name) => ({ name, kind: 'directory' }));
  }
}
