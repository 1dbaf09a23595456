import { EditTool } from './edit-tool';
import type { FileToolOptions } from './file-tool-options';
import { GlobTool } from './glob-tool';
import { GrepTool } from './grep-tool';
import { ReadTool } from './read-tool';
import { WriteTool } from './write-tool';

/** The file tools over one workspace, ready for `tools.register(...)`. */
export interface FileTools {
  readonly read: ReadTool;
  readonly write: WriteTool;
  readonly edit: EditTool;
  readonly glob: GlobTool;
  /** Unavailable (not offered to the model) unless the workspace is a `LocalWorkspace`. */
  readonly grep: GrepTool;
}

/**
 * `Read`, `Write`, `Edit`, `Glob` and `Grep` over one workspace (`name` is ignored: each keeps its built-in name). The
 * registry's context must provide the agent state (`context.provide(AGENT_STATE, state)`), one per conversation.
 *
 * @example
 * ```ts
 * const files = fileTools({ workspace: new LocalWorkspace('./project') });
 * const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) })
 *   .register(files.read, files.write, files.edit, files.glob, files.grep);
 * ```
 * @throws BuiltinToolError `INVALID_BUILTIN_OPTION` when the workspace has no absolute `root` and none is given.
 */
export function fileTools(options: Omit<FileToolOptions, 'name'>): FileTools {
  const shared = { ...options, name: undefined };
  return { read: new ReadTool(shared), write: new WriteTool(shared), edit: new EditTool(shared), glob: new GlobTool(shared), grep: new GrepTool(shared) };
}
