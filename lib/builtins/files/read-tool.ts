import { isUtf8 } from 'node:buffer';
import { deepFreeze } from '../../schema/deep-freeze';
import type { PermissionContext } from '../../permissions/permission-context';
import type { PermissionDecision } from '../../permissions/permission-decision';
import type { ActionResult } from '../../result';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolEffect } from '../../tool/tool-effect';
import { cutText } from '../../text/cut-text';
import { failed, failedFrom } from './failure';
import { FilePathTool } from './file-path-tool';
import type { FileToolOptions } from './file-tool-options';
import { splitLines } from './line-endings';
import { addRange, contentHash, readsOf } from './read-records';

/** Most lines one Read returns, and its default `limit`. */
export const READ_MAX_LINES = 2000;
/** Longest line, in UTF-16 code units, a Read shows before cutting it with a marker. */
export const READ_MAX_LINE_LENGTH = 2000;

/** The JSON Schema of the `Read` tool's params: `file_path`, optional `offset` and `limit` (lines). */
export const ReadInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['file_path'],
  properties: {
    file_path: {
      description: 'The file to read: relative to the workspace root, or absolute inside it.',
      type: 'string',
    },
    offset: { minimum: 1, description: 'The first line to show, 1-based (default 1).', type: 'integer' },
    limit: {
      minimum: 1,
      maximum: READ_MAX_LINES,
      description: `How many lines to show (default and most ${READ_MAX_LINES}).`,
      type: 'integer',
    },
  },
} as const);

/** The params of a Read call, as {@link ReadInput} describes them. */
export type ReadParams = { file_path: string; offset?: number; limit?: number };

const DESCRIPTION =
  'Reads a text file of the workspace. The output numbers each line (line number, a tab, the line) as `cat -n` does; ' +
  `it shows at most ${READ_MAX_LINES} lines (use offset and limit for more) and cuts lines longer than ` +
  `${READ_MAX_LINE_LENGTH} characters. Read a file before you Edit or overwrite it.`;

/**
 * The built-in `Read` tool: a text file of a {@link workspace!Workspace} with numbered lines, offset and limit. It records
 * the content's hash in the agent state, which `Write` and `Edit` require (read before write). Read-only and
 * concurrency-safe, except that a read of a credential path is not read-only and asks (see docs/builtins.md).
 */
export class ReadTool extends FilePathTool<typeof ReadInput> {
  constructor(options: FileToolOptions) {
    super(options, (permissions) => ({
      name: options.name ?? 'Read',
      description: DESCRIPTION,
      inputSchema: ReadInput,
      effects: [ToolEffect.READS_WORKSPACE],
      isReadOnly: true,
      isConcurrencySafe: true,
      isStateInjected: true,
      readOnlyWhen: (input) => typeof input.file_path === 'string' && !permissions.isCredential(input.file_path),
    }));
  }

  override checkPermissions(input: ReadParams, context: PermissionContext): PermissionDecision {
    return this.permissions.readDecision(this.name, input.file_path, context);
  }

  override async call(input: ReadParams, invocation: ToolInvocation): Promise<string | ActionResult> {
    const { workspace } = this.paths;
    const path = this.paths.forWorkspace(input.file_path);
    const shown = this.paths.display(input.file_path);
    let bytes: Uint8Array;
    try {
      bytes = await workspace.readBytes(path);
    } catch (error) {
      return failedFrom(error, `read '${shown}'`, shown);
    }
    if (!isUtf8(bytes)) return failed(`'${shown}' is not UTF-8 text (it may be binary); Read shows text files only.`);
    const entry = await workspace.stat(path).catch(() => null);
    const text = Buffer.from(bytes).toString('utf8');
    const view = shownLines(text, input.offset ?? 1, input.limit ?? READ_MAX_LINES);
    const reads = readsOf(invocation.state!, workspace);
    const absolute = this.paths.absolute(input.file_path);
    const sha256 = contentHash(bytes);
    const before = reads.get(absolute);
    // Reads of the same content add up (a long file read page by page); a changed content starts over.
    let seen: ReadonlyArray<readonly [number, number]> = before?.sha256 === sha256 && before.seen !== undefined ? before.seen : before?.sha256 === sha256 ? [[1, view.total]] : [];
    for (const [first, last] of view.whole) seen = addRange(seen, first, last);
    reads.set(absolute, { sha256, size: bytes.length, modifiedMs: entry?.modifiedMs ?? 0, lines: view.total, seen });
    return numberedLines(text, shown, input.offset ?? 1, input.limit ?? READ_MAX_LINES);
  }
}

/** The lines a Read of `offset`/`limit` shows whole (not cut for length), as ranges, and the text's line count. */
function shownLines(text: string, offset: number, limit: number): { total: number; whole: Array<readonly [number, number]> } {
  const lines = text === '' ? [] : splitLines(text);
  const last = Math.min(lines.length, offset + limit - 1);
  let whole: Array<readonly [number, number]> = [];
  for (let n = offset; n <= last; n++) if (lines[n - 1]!.length <= READ_MAX_LINE_LENGTH) whole = addRange(whole, n, n);
  return { total: lines.length, whole };
}

/**
 * The text Read returns: lines `offset` to `offset + limit - 1`, each as a right-aligned number, a tab and the line
 * (cut at {@link READ_MAX_LINE_LENGTH}), then a note when more lines follow.
 */
export function numberedLines(text: string, shown: string, offset: number, limit: number): string {
  if (text === '') return `(The file '${shown}' is empty.)`;
  // Lines end at `\r\n`, `\r` or `\n` (Windows, old Mac and Unix files), none of them shown.
  const lines = splitLines(text);
  const total = lines.length;
  if (offset > total) return `(The file '${shown}' has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past its end.)`;
  const last = Math.min(total, offset + limit - 1);
  const out: string[] = [];
  for (let n = offset; n <= last; n++) {
    const line = lines[n - 1]!;
    const cut = line.length > READ_MAX_LINE_LENGTH
      ? cutText(line, READ_MAX_LINE_LENGTH, ` ... [line cut: ${line.length} characters]`)
      : line;
    out.push(`${String(n).padStart(6)}\t${cut}`);
  }
  if (last < total) out.push('', `(Showing lines ${offset}-${last} of ${total}. Read again with offset ${last + 1} for more.)`);
  return out.join('\n');
}
