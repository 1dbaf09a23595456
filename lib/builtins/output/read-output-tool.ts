import { OUTPUT_FOLDER, READ_OUTPUT_TOOL, type OutputWorkspace } from '../../budget/output-budget';
import { readSavedOutput, savedOutputId } from '../../budget/saved-output';
import { PermissionDecision } from '../../permissions/permission-decision';
import type { ActionResult } from '../../result';
import { deepFreeze } from '../../schema/deep-freeze';
import { ToolBase } from '../../tool/tool-base';
import { ToolEffect } from '../../tool/tool-effect';
import { BuiltinToolError } from '../files/errors';
import { failed, failedFrom } from '../files/failure';

/** Default `limit` of the paging tool, in characters. */
export const READ_OUTPUT_DEFAULT_LIMIT = 10_000;
/** Largest `limit` of the paging tool, in characters. */
export const READ_OUTPUT_MAX_LIMIT = 100_000;

/** The params schema of the paging tool: `path`, `offset` and `limit` (see {@link ReadToolOutput}). */
export const ReadToolOutputInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['path'],
  properties: {
    path: { minLength: 1, description: `The saved output's path as a cut result gave it (${OUTPUT_FOLDER}/...).`, type: 'string' },
    offset: { minimum: 0, description: 'The character to start at (default 0; a cut result names where its cut starts).', type: 'integer' },
    limit: {
      minimum: 1,
      maximum: READ_OUTPUT_MAX_LIMIT,
      description: `How many characters to read (default ${READ_OUTPUT_DEFAULT_LIMIT}, at most ${READ_OUTPUT_MAX_LIMIT}).`,
      type: 'integer',
    },
  },
} as const);

/** The params of a paging call, as {@link ReadToolOutputInput} describes them. */
export type ReadToolOutputParams = { path: string; offset?: number; limit?: number };

/** Options of {@link ReadToolOutput}. */
export interface ReadToolOutputOptions {
  /** The workspace the output budget saves to (the same `Workspace` as its `workspace`). */
  readonly workspace: OutputWorkspace;
  /** The tool's name (default `read_output`, the name the budget's marker gives unless its `readTool` says otherwise). */
  readonly name?: string | undefined;
}

const DESCRIPTION =
  'Reads a tool output that was too long for its result and was saved: a page of characters from an offset. ' +
  `Only saved outputs (${OUTPUT_FOLDER}/...) can be read.`;

/**
 * The paging tool of output budgets: reads a saved output (see docs/output-budgets.md) back by character offset.
 * It reads only files of the outputs folder whose names a budget gives (`<tool>-<time>-<uuid>-<digest>.txt`), never
 * through a link, and only when the text read is the one the name was saved with (its SHA-256 digest), so nothing
 * else of the workspace: another path, `..`, an absolute path, a link placed in the folder or swapped in while it is
 * read, or a file planted under such a name fails the call. Read-only and concurrency-safe; its own results are not budgeted (its `limit` bounds them).
 * Offsets count UTF-16 code units (JavaScript string length), as the budget's marker does; a page never starts or
 * ends inside a surrogate pair.
 *
 * @throws BuiltinToolError `INVALID_BUILTIN_OPTION` from the constructor when `workspace` lacks `readFile`/`stat`.
 */
export class ReadToolOutput extends ToolBase<typeof ReadToolOutputInput> {
  readonly #workspace: OutputWorkspace;

  constructor(options: ReadToolOutputOptions) {
    if (typeof options?.workspace?.readFile !== 'function' || typeof options.workspace.stat !== 'function') {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION', 'ReadToolOutput: `workspace` must be a Workspace (readFile and stat).');
    }
    super({
      name: options.name ?? READ_OUTPUT_TOOL,
      description: DESCRIPTION,
      inputSchema: ReadToolOutputInput,
      effects: [ToolEffect.READS_WORKSPACE],
      isReadOnly: true,
      isConcurrencySafe: true,
      outputBudget: false,
    });
    this.#workspace = options.workspace;
  }

  override checkPermissions(): PermissionDecision {
    return PermissionDecision.allow('Reading a saved tool output only reads what a tool already returned.');
  }

  override async call(input: ReadToolOutputParams): Promise<string | ActionResult> {
    if (savedOutputId(input.path) === undefined) return failed(notSaved(input.path));
    let text: string | undefined;
    try {
      text = await readSavedOutput(this.#workspace, input.path);
    } catch (error) {
      return failedFrom(error, 'read the saved output', input.path);
    }
    if (text === undefined) return failed(notSaved(input.path));
    return page(text, input.path, input.offset ?? 0, input.limit ?? READ_OUTPUT_DEFAULT_LIMIT);
  }
}

function notSaved(path: string): string {
  return `'${path.slice(0, 300)}' is not a saved output. Pass the path a cut result gave (${OUTPUT_FOLDER}/<name>.txt).`;
}

/** One page of `text` with a header saying where it is and where the next one starts. */
function page(text: string, path: string, offset: number, limit: number): string | ActionResult {
  if (offset > text.length || (offset === text.length && offset > 0)) return failed(`offset ${offset} is past the end of '${path}' (${text.length} characters).`);
  let start = offset;
  if (start > 0 && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1))) start -= 1;
  let end = Math.min(text.length, start + limit);
  // A page of one code unit ending on half a pair takes the whole character instead.
  if (end < text.length && isHigh(text.charCodeAt(end - 1))) end += end - start > 1 ? -1 : 1;
  const next = end < text.length ? `next offset ${end}` : 'end of output';
  return `[${path}: characters ${start} to ${end} of ${text.length}; ${next}]\n${text.slice(start, end)}`;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The paging tool over the workspace an output budget saves to, ready for `tools.register(...)`. */
export function readToolOutput(options: ReadToolOutputOptions): ReadToolOutput {
  return new ReadToolOutput(options);
}
