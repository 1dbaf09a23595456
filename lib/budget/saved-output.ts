import { randomUUID } from 'node:crypto';
import { ResourceLink } from '../media/resource-link';
import type { MarkerWriter } from './cut-output';
import { OUTPUT_FOLDER, OUTPUT_URI_PREFIX, type OutputWorkspace } from './output-budget';

/** A full output saved in a workspace. */
export interface SavedOutput {
  /** The file name, unique: `<tool>-<time>-<random>.txt`. */
  readonly id: string;
  /** The path relative to the workspace root: `.agenttoolkit/outputs/<id>`. */
  readonly path: string;
  /** The MCP resource URI: `tool-output://<id>`. */
  readonly uri: string;
  /** Its length, in UTF-16 code units. */
  readonly chars: number;
}

/** The file names of saved outputs: a letter or digit, then letters, digits, `_`, `-` and `.`, ending in `.txt`. */
const SAVED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.txt$/;

/**
 * Saves `text` as a new file under {@link OUTPUT_FOLDER} of `workspace`, written atomically by the workspace and never
 * over an existing file (`overwrite: false`).
 * @throws whatever the workspace throws (a `WorkspaceError`): the caller then cuts without saving.
 */
export async function saveOutput(workspace: OutputWorkspace, toolName: string, text: string): Promise<SavedOutput> {
  const id = `${toolName.replace(/[^A-Za-z0-9_-]/g, '_')}-${Date.now()}-${randomUUID()}.txt`;
  const path = `${OUTPUT_FOLDER}/${id}`;
  await workspace.writeFile(path, text, { overwrite: false });
  return { id, path, uri: OUTPUT_URI_PREFIX + id, chars: text.length };
}

/**
 * The file name a reference to a saved output names, or undefined when it names anything else. Accepted: the file
 * name, its path (`.agenttoolkit/outputs/<id>`, an optional leading `./`) and its URI (`tool-output://<id>`). Nothing
 * with another folder, `..`, a backslash, an absolute path or a name outside {@link SAVED_NAME} is accepted.
 */
export function savedOutputId(reference: string): string | undefined {
  if (typeof reference !== 'string') return undefined;
  let name = reference.trim();
  if (name.startsWith(OUTPUT_URI_PREFIX)) name = name.slice(OUTPUT_URI_PREFIX.length);
  else if (name.startsWith(`./${OUTPUT_FOLDER}/`)) name = name.slice(OUTPUT_FOLDER.length + 3);
  else if (name.startsWith(`${OUTPUT_FOLDER}/`)) name = name.slice(OUTPUT_FOLDER.length + 1);
  return SAVED_NAME.test(name) && !name.includes('..') ? name : undefined;
}

/**
 * Reads a saved output back by its file name: undefined when it is not a saved output's name, nothing is there, or
 * the path is a link or a folder (a link placed in the outputs folder is never followed). The workspace confines the
 * read to its root.
 */
export async function readSavedOutput(workspace: OutputWorkspace, reference: string): Promise<string | undefined> {
  const id = savedOutputId(reference);
  if (id === undefined) return undefined;
  const path = `${OUTPUT_FOLDER}/${id}`;
  const entry = await workspace.stat(path).catch(() => null);
  if (entry === null || entry.isSymlink || entry.isDirectory) return undefined;
  return workspace.readFile(path);
}

/** The MCP resource link to a saved output. */
export function savedOutputLink(saved: SavedOutput, toolName: string): ResourceLink {
  return new ResourceLink({ uri: saved.uri, name: saved.id, title: `Full output of ${toolName}`, description: `The full output of the tool '${toolName}' (${saved.chars} characters), cut in the result.`, mimeType: 'text/plain' });
}

/** The marker between the head and the tail of a cut output: what was cut, and where the rest is (or that it is gone). */
export function markerWriter(saved: SavedOutput | undefined, readTool: string): MarkerWriter {
  return ({ totalChars, offset, cutChars, cutLines }) => {
    const what = `${cutChars} of ${totalChars} characters (${cutLines} line breaks) cut here`;
    if (saved === undefined) return `\n\n[... ${what} and not kept; ask the tool for less (a filter, a range) to see that part ...]\n\n`;
    return `\n\n[... ${what}. The full output is saved at ${saved.path}: call ${readTool} with {"path": "${saved.path}", "offset": ${offset}} to read on from here ...]\n\n`;
  };
}
