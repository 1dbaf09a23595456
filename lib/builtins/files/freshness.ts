import type { AgentState } from '../../tool/agent-state';
import type { Workspace } from '../../workspace/workspace';
import { splitLines } from './line-endings';
import { contentHash, readsOf, type ReadRecord } from './read-records';

/** Where a file a tool is about to change stands. */
export type Freshness =
  | { readonly kind: 'missing' }
  | { readonly kind: 'directory' }
  | { readonly kind: 'fresh'; readonly text: Uint8Array; readonly record: ReadRecord }
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Read before write: an existing file may be changed only when this conversation has read it and its content is
 * still what was read (same SHA-256), so neither a file the agent never saw nor one edited meanwhile (by the user,
 * a formatter, another agent) is overwritten blindly.
 */
export async function freshness(workspace: Workspace, state: AgentState, absolute: string, path: string, shown: string): Promise<Freshness> {
  const entry = await workspace.stat(path);
  if (entry === null) return { kind: 'missing' };
  if (entry.isDirectory) return { kind: 'directory' };
  const record = readsOf(state, workspace).get(absolute);
  if (record === undefined) {
    return { kind: 'refused', message: `'${shown}' exists and has not been read in this conversation. Read it first, then change it.` };
  }
  const bytes = await workspace.readBytes(path);
  if (contentHash(bytes) !== record.sha256) {
    return { kind: 'refused', message: `'${shown}' has changed on disk since it was read. Read it again, then change it.` };
  }
  return { kind: 'fresh', text: bytes, record };
}

/**
 * Records content the tool itself just wrote, so a later change needs no fresh Read. `seenWhole` false (an Edit of a
 * file read only in part) records none of its lines as seen: a later Write then needs the new content read.
 */
export function recordWritten(workspace: Workspace, state: AgentState, absolute: string, content: string, seenWhole = true): void {
  const bytes = Buffer.from(content, 'utf8');
  readsOf(state, workspace).set(absolute, { sha256: contentHash(bytes), size: bytes.length, modifiedMs: Date.now(), ...(seenWhole ? {} : { lines: splitLines(content).length, seen: [] }) });
}

/** `n line(s)` of a text, a trailing newline not counting as a further line. */
export function lineCount(text: string): string {
  const n = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${n} line${n === 1 ? '' : 's'}`;
}
