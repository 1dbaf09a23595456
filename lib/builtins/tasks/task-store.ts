import type { AgentState } from '../../tool/agent-state';

/** The key under which the task tools keep their list in the agent state. */
export const TASKS_STATE_KEY = 'agenttoolkit.tasks';

/** Where a task stands. */
export type TaskStatus = 'pending' | 'in_progress' | 'completed';

/** A JSON scalar: what a task's metadata values may be. */
export type TaskMetadataValue = string | number | boolean;

/** One task of the agent's list. Ids are sequential (`"1"`, `"2"`, ...) within one agent state. */
export interface Task {
  readonly id: string;
  readonly subject: string;
  readonly description: string;
  readonly status: TaskStatus;
  readonly owner: string | undefined;
  /** Tasks that cannot start before this one is done (kept in step with their `blockedBy`). */
  readonly blocks: readonly string[];
  /** Tasks this one waits for (kept in step with their `blocks`). */
  readonly blockedBy: readonly string[];
  readonly metadata: Readonly<Record<string, TaskMetadataValue>>;
  /** Milliseconds since the Unix epoch. */
  readonly createdAt: number;
}

/** A change to a task; `undefined` fields are left as they are, a metadata value `null` removes its key. */
export interface TaskPatch {
  readonly subject?: string;
  readonly description?: string;
  readonly status?: TaskStatus;
  readonly owner?: string;
  readonly addBlocks?: readonly string[];
  readonly addBlockedBy?: readonly string[];
  readonly metadata?: Readonly<Record<string, TaskMetadataValue | null>>;
}

/**
 * The task list of one agent state. Every method runs to completion without awaiting, so calls running side by
 * side (the task tools are concurrency-safe) never see a half-made change. Block links are kept both ways: `a`
 * blocks `b` exactly when `b` is blocked by `a`; deleting a task removes it from every link.
 */
export class TaskStore {
  readonly #tasks = new Map<string, Task>();
  #next = 1;

  /** The task list kept in `state`, created on first use. */
  static of(state: AgentState): TaskStore {
    const found = state[TASKS_STATE_KEY];
    if (found instanceof TaskStore) return found;
    const store = new TaskStore();
    state[TASKS_STATE_KEY] = store;
    return store;
  }

  /** Adds a pending task with the next id, and returns it. */
  create(subject: string, description: string, metadata: Readonly<Record<string, TaskMetadataValue | null>> = {}): Task {
    const id = String(this.#next++);
    const task: Task = freeze({
      id, subject, description, status: 'pending', owner: undefined, blocks: [], blockedBy: [],
      metadata: applyMetadata({}, metadata), createdAt: Date.now(),
    });
    this.#tasks.set(id, task);
    return task;
  }

  /** The task with this id, or undefined. */
  get(id: string): Task | undefined {
    return this.#tasks.get(id);
  }

  /** Every task, in creation order. */
  list(): Task[] {
    return [...this.#tasks.values()];
  }

  /**
   * Applies `patch` to task `id`. @returns the updated task, or a message for the model saying why nothing changed
   * (unknown task, a link to an unknown task or to itself).
   */
  update(id: string, patch: TaskPatch): Task | string {
    const task = this.#tasks.get(id);
    if (task === undefined) return unknownTask(id);
    const links = [...(patch.addBlocks ?? []), ...(patch.addBlockedBy ?? [])];
    for (const other of links) {
      if (other === id) return `Task #${id} cannot block itself.`;
      if (!this.#tasks.has(other)) return unknownTask(other);
    }
    this.#tasks.set(id, freeze({
      ...task,
      subject: patch.subject ?? task.subject,
      description: patch.description ?? task.description,
      status: patch.status ?? task.status,
      owner: patch.owner ?? task.owner,
      metadata: patch.metadata === undefined ? task.metadata : applyMetadata(task.metadata, patch.metadata),
    }));
    for (const other of patch.addBlocks ?? []) this.#link(id, other);
    for (const other of patch.addBlockedBy ?? []) this.#link(other, id);
    return this.#tasks.get(id)!;
  }

  /** Deletes task `id` and strips it from every other task's links. @returns false when there was no such task. */
  delete(id: string): boolean {
    if (!this.#tasks.delete(id)) return false;
    for (const [otherId, other] of this.#tasks) {
      if (other.blocks.includes(id) || other.blockedBy.includes(id)) {
        this.#tasks.set(otherId, freeze({ ...other, blocks: other.blocks.filter((x) => x !== id), blockedBy: other.blockedBy.filter((x) => x !== id) }));
      }
    }
    return true;
  }

  /** Records that `blocker` blocks `blocked`, on both tasks (no duplicates). */
  #link(blocker: string, blocked: string): void {
    const a = this.#tasks.get(blocker)!;
    const b = this.#tasks.get(blocked)!;
    if (!a.blocks.includes(blocked)) this.#tasks.set(blocker, freeze({ ...a, blocks: [...a.blocks, blocked] }));
    if (!b.blockedBy.includes(blocker)) this.#tasks.set(blocked, freeze({ ...b, blockedBy: [...b.blockedBy, blocker] }));
  }
}

function unknownTask(id: string): string {
  return `Task #${id} does not exist. Call TaskList to see the tasks.`;
}

function applyMetadata(base: Readonly<Record<string, TaskMetadataValue>>, patch: Readonly<Record<string, TaskMetadataValue | null>>): Record<string, TaskMetadataValue> {
  const out: Record<string, TaskMetadataValue> = Object.create(null) as Record<string, TaskMetadataValue>;
  for (const key of Object.keys(base)) out[key] = base[key]!;
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null || value === undefined) delete out[key];
    else out[key] = value;
  }
  return Object.freeze(out);
}

function freeze(task: Task): Task {
  return Object.freeze({ ...task, blocks: Object.freeze([...task.blocks]), blockedBy: Object.freeze([...task.blockedBy]) });
}
