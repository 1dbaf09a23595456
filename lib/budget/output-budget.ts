import { CoreError } from '../errors';

/**
 * Where an output budget saves a full result that it cut: any object with these three methods of the `Workspace`
 * port (`LocalWorkspace`, `DockerWorkspace`, your own), so a `Workspace` is passed as it is. `writeFile` must write
 * atomically (readers see the whole file or nothing) and honour `overwrite: false`; every `Workspace` does.
 */
export interface OutputWorkspace {
  /** Writes `content` (UTF-8) at the workspace-relative `path`, creating folders; with `overwrite: false`, refuses an existing file. */
  writeFile(path: string, content: string, options?: { readonly overwrite?: boolean }): Promise<void>;
  /** The UTF-8 text of the file at the workspace-relative `path`; rejects when it cannot be read. */
  readFile(path: string): Promise<string>;
  /** What is at the workspace-relative `path` (without following a final link), or `null` when nothing is there. */
  stat(path: string): Promise<{ readonly isSymlink: boolean; readonly isDirectory: boolean } | null>;
}

/**
 * A limit on the result text a model receives from a tool: on the registry (`new Tools({ outputBudget })`, for every
 * tool) and on a tool (`outputBudget` of `@Action`, `tools.action`, `ToolBase` and `FunctionTool`; its fields
 * override the registry's, and `false` turns the budget off for that tool). See docs/output-budgets.md.
 *
 * Over budget, the text keeps its head and its tail around a marker that says how much was cut and how to get the
 * rest. With a `workspace`, the full text is first saved there (a new file under {@link OUTPUT_FOLDER}) and the
 * marker gives its path, which the paging tool (`ReadToolOutput` in `agenttoolkit/builtins`) reads by offset.
 */
export interface OutputBudget {
  /** The most UTF-16 code units (JavaScript `length`) of text, marker included. A positive integer. */
  readonly maxChars?: number | undefined;
  /** The most tokens of text, marker included, counted by `estimateTokens` (required with it). A positive integer. */
  readonly maxTokens?: number | undefined;
  /**
   * Counts the tokens of a text, for `maxTokens`: your tokenizer, or an estimate such as
   * `(text) => Math.ceil(text.length / 4)`. It must grow with the text (a longer text never counts fewer tokens).
   */
  readonly estimateTokens?: ((text: string) => number) | undefined;
  /** Where full results that were cut are saved (see {@link OutputWorkspace}); without it, the cut part is dropped. */
  readonly workspace?: OutputWorkspace | undefined;
  /** The paging tool's name, as the marker tells the model (default `read_output`). */
  readonly readTool?: string | undefined;
  /**
   * The longest text saved, in UTF-16 code units (default {@link DEFAULT_MAX_SAVED_CHARS}): a streamed output keeps
   * at most this much in memory for saving; a longer one is cut without being saved.
   */
  readonly maxSavedChars?: number | undefined;
}

/** The folder of a workspace that saved outputs are written to, relative to its root. */
export const OUTPUT_FOLDER = '.agenttoolkit/outputs';

/** The URI scheme of saved outputs served over MCP: `tool-output://<file name>`. */
export const OUTPUT_URI_PREFIX = 'tool-output://';

/** Default {@link OutputBudget.readTool}. */
export const READ_OUTPUT_TOOL = 'read_output';

/** Default {@link OutputBudget.maxSavedChars}: 16 Mi code units. */
export const DEFAULT_MAX_SAVED_CHARS = 16 * 1024 * 1024;

/**
 * Characters held per token of a token budget's tail while a tool streams (a tokenizer's token is rarely longer):
 * without `maxChars`, a streamed output holds at most `maxTokens * STREAM_CHARS_PER_TOKEN` characters of tail.
 */
export const STREAM_CHARS_PER_TOKEN = 16;

/** A budget with its defaults applied. */
export interface ResolvedBudget {
  readonly maxChars: number | undefined;
  readonly maxTokens: number | undefined;
  readonly estimateTokens: ((text: string) => number) | undefined;
  readonly workspace: OutputWorkspace | undefined;
  readonly readTool: string;
  readonly maxSavedChars: number;
}

const KEYS: ReadonlySet<string> = new Set(['maxChars', 'maxTokens', 'estimateTokens', 'workspace', 'readTool', 'maxSavedChars']);

/**
 * Checks an output budget option.
 * @param where - what the budget belongs to, for the message (`Tools`, `tool 'search'`).
 * @throws CoreError `INVALID_OPTION` for an unknown key, a limit that is not a positive integer, `maxTokens` without
 *   `estimateTokens` (or the reverse), or a workspace without `writeFile`/`readFile`/`stat`.
 */
export function checkOutputBudget(budget: unknown, where: string): void {
  if (budget === undefined || budget === false) return;
  const bad = (why: string): never => {
    throw new CoreError('INVALID_OPTION', `${where}: outputBudget ${why}. See docs/output-budgets.md.`);
  };
  if (typeof budget !== 'object' || budget === null) bad('must be an object ({ maxChars }, { maxTokens, estimateTokens }) or false');
  const fields = budget as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!KEYS.has(key)) bad(`has no option '${key}' (options: ${[...KEYS].join(', ')})`);
  for (const key of ['maxChars', 'maxTokens', 'maxSavedChars']) {
    const value = fields[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) bad(`'${key}' must be a positive integer`);
  }
  if ((fields.maxTokens === undefined) !== (fields.estimateTokens === undefined)) bad("'maxTokens' and 'estimateTokens' go together");
  if (fields.estimateTokens !== undefined && typeof fields.estimateTokens !== 'function') bad("'estimateTokens' must be a function of the text");
  if (fields.readTool !== undefined && (typeof fields.readTool !== 'string' || fields.readTool === '')) bad("'readTool' must be a tool name");
  const workspace = fields.workspace as Record<string, unknown> | undefined;
  if (workspace !== undefined && (typeof workspace !== 'object' || workspace === null || ['writeFile', 'readFile', 'stat'].some((m) => typeof workspace[m] !== 'function'))) {
    bad("'workspace' must be a Workspace (writeFile, readFile and stat)");
  }
}

/**
 * The budget of one tool: the registry's fields overridden by the tool's, or undefined when neither sets a limit (or
 * the tool's budget is `false`).
 */
export function resolveBudget(registry: OutputBudget | undefined, tool: OutputBudget | false | undefined): ResolvedBudget | undefined {
  if (tool === false) return undefined;
  const merged: OutputBudget = { ...registry, ...withoutUndefined(tool) };
  if (merged.maxChars === undefined && merged.maxTokens === undefined) return undefined;
  return {
    maxChars: merged.maxChars,
    maxTokens: merged.estimateTokens === undefined ? undefined : merged.maxTokens,
    estimateTokens: merged.maxTokens === undefined ? undefined : merged.estimateTokens,
    workspace: merged.workspace,
    readTool: merged.readTool ?? READ_OUTPUT_TOOL,
    maxSavedChars: merged.maxSavedChars ?? DEFAULT_MAX_SAVED_CHARS,
  };
}

function withoutUndefined(budget: OutputBudget | undefined): OutputBudget {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(budget ?? {})) if (value !== undefined) out[key] = value;
  return out;
}
