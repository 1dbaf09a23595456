import { deepFreeze } from '../../schema/deep-freeze';
import type { PermissionContext } from '../../permissions/permission-context';
import type { PermissionDecision } from '../../permissions/permission-decision';
import type { ActionResult } from '../../result';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolEffect } from '../../tool/tool-effect';
import { failed, failedFrom } from './failure';
import { FilePathTool } from './file-path-tool';
import type { FileToolOptions } from './file-tool-options';
import { freshness, recordWritten } from './freshness';
import { matchWithEndings } from './line-endings';
import { firstUnseenLine } from './read-records';
import { AmbiguousMatchError, TextNotFoundError } from '../../workspace/errors';

/** The JSON Schema of the `Edit` tool's params: `file_path`, `old_string`, `new_string`, optional `replace_all`. */
export const EditInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['file_path', 'old_string', 'new_string'],
  properties: {
    file_path: {
      description: 'The file to edit: relative to the workspace root, or absolute inside it.',
      type: 'string',
    },
    old_string: {
      description: 'The exact text to replace, whitespace included; it must occur once unless replace_all.',
      type: 'string',
    },
    new_string: { description: 'The text to put in its place (must differ from old_string).', type: 'string' },
    replace_all: { description: 'Replace every occurrence (default false).', type: 'boolean' },
  },
} as const);

/** The params of an Edit call, as {@link EditInput} describes them. */
export type EditParams = { file_path: string; old_string: string; new_string: string; replace_all?: boolean };

const DESCRIPTION =
  'Replaces exact text in a file of the workspace. old_string must match the file exactly (copy it from Read ' +
  'output without the line number prefix; line breaks match the file\'s own, CRLF included, and the replacement ' +
  'is written with them) and occur once, unless replace_all is true. Read the file first.';

/**
 * The built-in `Edit` tool over a {@link workspace!Workspace}: literal replacement written back atomically, read before
 * write enforced from the agent state. Line breaks in `old_string` match any line break of the file (`\r\n`, `\r` or
 * `\n`, as Read shows every line without its ending), and `new_string` is written with the file's breaks at the match
 * (see `matchWithEndings`). Refuses an empty or missing old text, several occurrences without
 * `replace_all`, and identical old and new text. Same permission verdict as `Write`.
 */
export class EditTool extends FilePathTool<typeof EditInput> {
  constructor(options: FileToolOptions) {
    super(options, () => ({
      name: options.name ?? 'Edit',
      description: DESCRIPTION,
      inputSchema: EditInput,
      effects: [ToolEffect.WRITES_WORKSPACE],
      isStateInjected: true,
    }));
  }

  override checkPermissions(input: EditParams, context: PermissionContext): PermissionDecision {
    return this.permissions.writeDecision(this.name, input.file_path, context);
  }

  override async call(input: EditParams, invocation: ToolInvocation): Promise<string | ActionResult> {
    const { workspace } = this.paths;
    const state = invocation.state!;
    const { old_string: oldText, new_string: newText } = input;
    const replaceAll = input.replace_all === true;
    const path = this.paths.forWorkspace(input.file_path);
    const shown = this.paths.display(input.file_path);
    const absolute = this.paths.absolute(input.file_path);
    if (oldText === '') return failed('old_string is empty. Give the exact text to replace; to create a file use Write.');
    if (oldText === newText) return failed('old_string and new_string are identical, so the edit would change nothing.');
    try {
      const found = await freshness(workspace, state, absolute, path, shown);
      if (found.kind === 'refused') return failed(found.message);
      if (found.kind === 'missing') return failed(`'${shown}' does not exist. Use Write to create a file.`);
      if (found.kind === 'directory') return failed(`'${shown}' is a directory, not a file.`);
      const before = Buffer.from(found.text).toString('utf8');
      const match = matchWithEndings(before, oldText, newText, replaceAll);
      if (match.kind === 'none') return failedFrom(new TextNotFoundError(shown), `edit '${shown}'`, shown);
      if (match.kind === 'ambiguous') return failedFrom(new AmbiguousMatchError(shown, match.count), `edit '${shown}'`, shown);
      if (match.replacements === undefined) await workspace.writeFile(path, match.content, { overwrite: true });
      else for (const { oldText: actual, newText: replacement, count } of match.replacements) await workspace.editFile(path, actual, replacement, { replaceAll: count > 1 });
      recordWritten(workspace, state, absolute, match.content, firstUnseenLine(found.record) === undefined);
      return `Edited '${shown}': ${match.count} replacement${match.count === 1 ? '' : 's'}.`;
    } catch (error) {
      return failedFrom(error, `edit '${shown}'`, shown);
    }
  }
}
