import { createHash } from 'node:crypto';
import type { AgentState } from '../../tool/agent-state';
import type { Workspace } from '../../workspace/workspace';

/** The key under which the file tools keep, in the agent state, what the agent has read. */
export const FILE_READS_STATE_KEY = 'agenttoolkit.files.reads';

/**
 * What a Read recorded about a file: the SHA-256 of its whole content, its size and modification time then, and
 * which of its lines the agent has seen whole (`Write` replaces a file only when every line has been seen).
 */
export interface ReadRecord {
  readonly sha256: string;
  readonly size: number;
  readonly modifiedMs: number;
  /** How many lines the content has. */
  readonly lines?: number;
  /**
   * The lines shown whole by the Reads of this content, as sorted, disjoint 1-based inclusive ranges (`[[1, 5]]`: lines
   * 1 to 5); a line Read cut for length is not among them. Absent for content the tools wrote themselves, which
   * the agent saw whole.
   */
  readonly seen?: ReadonlyArray<readonly [number, number]>;
}

/** `ranges` with `[first, last]` added: sorted, disjoint, adjacent ranges joined. */
export function addRange(ranges: ReadonlyArray<readonly [number, number]>, first: number, last: number): Array<readonly [number, number]> {
  const all = [...ranges, [first, last] as const].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of all) {
    const top = out[out.length - 1];
    if (top !== undefined && a <= top[1] + 1) top[1] = Math.max(top[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The first line of `1..lines` that `record` has not seen whole, or undefined when it has seen every line. */
export function firstUnseenLine(record: ReadRecord): number | undefined {
  if (record.seen === undefined || record.lines === undefined) return undefined;
  let next = 1;
  for (const [a, b] of record.seen) {
    if (a > next) return next;
    next = Math.max(next, b + 1);
  }
  return next <= record.lines ? next : undefined;
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
