import { createHash, randomUUID } from 'node:crypto';
import { CoreError } from '../errors';
import { ResourceLink } from '../media/resource-link';
import type { MarkerWriter } from './cut-output';
import { OUTPUT_FOLDER, OUTPUT_URI_PREFIX, type OutputWorkspace } from './output-budget';

/** A full output saved in a workspace. */
export interface SavedOutput {
  /** The file name, unique: `<tool>-<time>-<random UUID>-<digest of the text>.txt`. */
  readonly id: string;
  /** The path relative to the workspace root: `.agenttoolkit/outputs/<id>`. */
  readonly path: string;
  /** The MCP resource URI: `tool-output://<id>`. */
  readonly uri: string;
  /** Its length, in UTF-16 code units. */
  readonly chars: number;
}

/** The longest tool name kept in a saved output's file name (the whole name stays far below 255 bytes). */
const MAX_TOOL_PART = 64;

/** Hex digits of the text's SHA-256 kept in the file name (128 bits). */
const DIGEST_HEX = 32;

/**
 * The file names of saved outputs, exactly as {@link saveOutput} gives them: the tool's name (letters, digits, `_`,
 * `-`), the time in milliseconds, a random UUID and the first 128 bits of the SHA-256 of the text, in lowercase hex.
 */
const SAVED_NAME = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOOL_PART}}-\\d{1,16}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-([0-9a-f]{${DIGEST_HEX}})\\.txt$`);

/** The digest a saved output's name carries: SHA-256 of the text's UTF-8 bytes, the bytes the workspace writes. */
function digestOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, DIGEST_HEX);
}

/**
 * Saves `text` as a new file under {@link OUTPUT_FOLDER} of `workspace`, written atomically by the workspace and never
 * over an existing file (`overwrite: false`). Its name carries the digest of the text, which
 * {@link readSavedOutput} checks: a file swapped in under that name (a link, a copy of another file) is not read.
 * @throws CoreError `OUTPUT_FOLDER_LINKED` when `.agenttoolkit` or its `outputs` folder is a symbolic link (outputs
 *   are never saved into the folder it points to); whatever the workspace throws (a `WorkspaceError`). The caller
 *   then cuts without saving.
 */
export async function saveOutput(workspace: OutputWorkspace, toolName: string, text: string): Promise<SavedOutput> {
  for (const folder of [OUTPUT_FOLDER.slice(0, OUTPUT_FOLDER.indexOf('/')), OUTPUT_FOLDER]) {
    if ((await workspace.stat(folder))?.isSymlink === true) {
      throw new CoreError('OUTPUT_FOLDER_LINKED', `'${folder}' is a symbolic link; tool outputs are saved only in a real folder.`);
    }
  }
  const tool = toolName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_PART);
  const id = `${tool}-${Date.now()}-${randomUUID()}-${digestOf(text)}.txt`;
  const path = `${OUTPUT_FOLDER}/${id}`;
  await workspace.writeFile(path, text, { overwrite: false });
  return { id, path, uri: OUTPUT_URI_PREFIX + id, chars: text.length };
}

/**
 * The file name a reference to a saved output names, or undefined when it names anything else. Accepted: the file
 * name, its path (`.agenttoolkit/outputs/<id>`, an optional leading `./`) and its URI (`tool-output://<id>`). Nothing
 * with another folder, `..`, a backslash, an absolute path or a name other than the budget gives is accepted.
 */
export function savedOutputId(reference: string): string | undefined {
  if (typeof reference !== 'string') return undefined;
  let name = reference.trim();
  if (name.startsWith(OUTPUT_URI_PREFIX)) name = name.slice(OUTPUT_URI_PREFIX.length);
  else if (name.startsWith(`./${OUTPUT_FOLDER}/`)) name = name.slice(OUTPUT_FOLDER.length + 3);
  else if (name.startsWith(`${OUTPUT_FOLDER}/`)) name = name.slice(OUTPUT_FOLDER.length + 1);
  return SAVED_NAME.test(name) ? name : undefined;
}

/**
 * Reads a saved output back by its file name: undefined when it is not a saved output's name, nothing is there, the
 * path is a link or a folder, or what was read is not the text the name was saved with (its digest differs). The last
 * check is made on the very text returned, so a file swapped for a link (or for anything else) between the look and
 * the read, a link in a folder on the way, or a file planted under a saved output's name is never handed out, with
 * any `Workspace`. The workspace confines the read to its root.
 */
export async function readSavedOutput(workspace: OutputWorkspace, reference: string): Promise<string | undefined> {
  const id = savedOutputId(reference);
  if (id === undefined) return undefined;
  const path = `${OUTPUT_FOLDER}/${id}`;
  const entry = await workspace.stat(path).catch(() => null);
  if (entry === null || entry.isSymlink || entry.isDirectory) return undefined;
  const text = await workspace.readFile(path);
  return digestOf(text) === SAVED_NAME.exec(id)![1] ? text : undefined;
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
