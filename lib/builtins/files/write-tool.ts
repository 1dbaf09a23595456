import { deepFreeze } from '../../schema/deep-freeze';
import type { PermissionContext } from '../../permissions/permission-context';
import type { PermissionDecision } from '../../permissions/permission-decision';
import type { ActionResult } from '../../result';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolEffect } from '../../tool/tool-effect';
import { failed, failedFrom } from './failure';
import { FilePathTool } from './file-path-tool';
import type { FileToolOptions } from './file-tool-options';
import { freshness, lineCount, recordWritten } from './freshness';
import { firstUnseenLine } from './read-records';

/** The JSON Schema of the `Write` tool's params: `file_path` and `content`. */
export const WriteInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['file_path', 'content'],
  properties: {
    file_path: {
      description: 'The file to write: relative to the workspace root, or absolute inside it.',
      type: 'string',
    },
    content: { description: 'The whole new content of the file.', type: 'string' },
  },
} as const);

/** The params of a Write call, as {@link WriteInput} describes them. */
export type WriteParams = { file_path: string; content: string };

const DESCRIPTION =
  'Writes a whole text file of the workspace, creating it (and its folders) or replacing its content. An existing ' +
  'file must have been read whole with Read first (every line, with offset for long files) and not changed since. ' +
  'Prefer Edit to change part of a file.';

/**
 * The built-in `Write` tool over a {@link workspace!Workspace}: atomic, parents created, read before write enforced from the
 * agent state. Its own verdict: a dangerous or credential path asks, bypass-immune; ACCEPT_EDITS allows a path
 * inside a working directory; otherwise the rules and mode decide. Not concurrency-safe.
 */
export class WriteTool extends FilePathTool<typeof WriteInput> {
  constructor(options: FileToolOptions) {
    super(options, () => ({
      name: options.name ?? 'Write',
      description: DESCRIPTION,
      inputSchema: WriteInput,
      effects: [ToolEffect.WRITES_WORKSPACE],
      isStateInjected: true,
    }));
  }

  override checkPermissions(input: WriteParams, context: PermissionContext): PermissionDecision {
    return this.permissions.writeDecision(this.name, input.file_path, context);
  }

  override async call(input: WriteParams, invocation: ToolInvocation): Promise<string | ActionResult> {
    const { workspace } = this.paths;
    const state = invocation.state!;
    const path = this.paths.forWorkspace(input.file_path);
    const shown = this.paths.display(input.file_path);
    const absolute = this.paths.absolute(input.file_path);
    try {
      const found = await freshness(workspace, state, absolute, path, shown);
      if (found.kind === 'refused') return failed(found.message);
      // Write replaces every line: the agent must have seen each of them (Edit replaces only the text it names).
      const unseen = found.kind === 'fresh' ? firstUnseenLine(found.record) : undefined;
      if (unseen !== undefined && found.kind === 'fresh') {
        return failed(
          `'${shown}' has been read only in part (line ${unseen} of its ${found.record.lines} lines was not shown whole), and Write replaces the whole file. ` +
            'Read all of it first (Read with offset for the lines not yet shown), or change only the part you read with Edit.',
        );
      }
      // A new file is created exclusively: one that appeared since the check is refused, never overwritten.
      await workspace.writeFile(path, input.content, { overwrite: found.kind !== 'missing' });
      recordWritten(workspace, state, absolute, input.content);
      return found.kind === 'missing'
        ? `Created '${shown}' (${lineCount(input.content)}).`
        : `Wrote '${shown}' (${lineCount(input.content)}), replacing its previous content.`;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ALREADY_EXISTS') {
        return failed(`'${shown}' was created by someone else while it was being written. Read it first, then change it.`);
      }
      return failedFrom(error, `write '${shown}'`, shown);
    }
  }
}
