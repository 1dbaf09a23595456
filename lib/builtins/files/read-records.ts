import { createHash } from 'node:crypto';
import type { AgentState } from '../../tool/agent-state';
import type { Workspace } from '../../workspace/workspace';

/** The key under which the file tools keep, in the agent state, what the agent has read. */
export const FILE_READS_STATE_KEY = 'agenttoolkit.files.reads';

/** What a Read recorded about a file: the SHA-256 of its whole content, its size and modification time then. */
export interface ReadRecord {
  readonly sha256: string;
  readonly size: number;
  readonly modifiedMs: number;
}

type Reads = WeakMap<Workspace, Map<string, ReadRecord>>;

/** The SHA-256 of content (text as UTF-8), hex. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The read records of one workspace in one agent state (per conversation), keyed by canonical absolute path. Kept
 * per workspace instance, so two workspaces whose paths look alike never vouch for each other.
 */
export function readsOf(state: AgentState, workspace: Workspace): Map<string, ReadRecord> {
  let all = state[FILE_READS_STATE_KEY] as Reads | undefined;
  if (!(all instanceof WeakMap)) {
    all = new WeakMap();
    state[FILE_READS_STATE_KEY] = all;
  }
  let reads = all.get(workspace);
  if (reads === undefined) {
    reads = new Map();
    all.set(workspace, reads);
  }
  return reads;
}
