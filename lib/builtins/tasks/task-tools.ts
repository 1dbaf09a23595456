import { Type, type Static, type TObject } from '@sinclair/typebox';
import { PermissionDecision } from '../../permissions/permission-decision';
import { ActionResult } from '../../result';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolBase } from '../../tool/tool-base';
import { TaskStore, type Task, type TaskMetadataValue } from './task-store';

// A list of pairs rather than a free-keyed map: strict provider modes (OpenAI) need every object key declared.
const Metadata = Type.Array(Type.Object({
  key: Type.String({ minLength: 1 }),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
}, { additionalProperties: false }), { description: 'Key-value notes on the task, as {key, value} pairs; on update a null value removes its key.' });

function toRecord(pairs: ReadonlyArray<{ key: string; value: TaskMetadataValue | null }> | undefined): Record<string, TaskMetadataValue | null> | undefined {
  if (pairs === undefined) return undefined;
  const out: Record<string, TaskMetadataValue | null> = Object.create(null) as Record<string, TaskMetadataValue | null>;
  for (const { key, value } of pairs) out[key] = value;
  return out;
}
const TaskId = Type.String({ description: 'The task id, as TaskCreate or TaskList gave it (for example "3").' });

export const TaskCreateInput = Type.Object({
  subject: Type.String({ minLength: 1, description: 'A short imperative title, for example "Fix the login test".' }),
  description: Type.String({ description: 'What needs to be done, and how to tell it is done.' }),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false });

export const TaskGetInput = Type.Object({ taskId: TaskId }, { additionalProperties: false });

export const TaskListInput = Type.Object({}, { additionalProperties: false });

export const TaskUpdateInput = Type.Object({
  taskId: TaskId,
  subject: Type.Optional(Type.String({ minLength: 1 })),
  description: Type.Optional(Type.String()),
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('in_progress'), Type.Literal('completed'), Type.Literal('deleted')], {
    description: 'pending, in_progress, completed, or deleted to remove the task (and every link to it).',
  })),
  owner: Type.Optional(Type.String({ description: 'Who works on the task (an agent name).' })),
  addBlocks: Type.Optional(Type.Array(TaskId, { description: 'Tasks that cannot start until this one is completed.' })),
  addBlockedBy: Type.Optional(Type.Array(TaskId, { description: 'Tasks that must be completed before this one.' })),
  metadata: Type.Optional(Metadata),
}, { additionalProperties: false });

export type TaskCreateParams = Static<typeof TaskCreateInput>;
export type TaskGetParams = Static<typeof TaskGetInput>;
export type TaskUpdateParams = Static<typeof TaskUpdateInput>;

/** Options of the task tools. */
export interface TaskToolOptions {
  /** The tool's name (default its built-in name). */
  readonly name?: string;
}

/**
 * The shared shape of the task tools: state-injected (the list lives in the agent state, one per conversation),
 * always allowed, read-only for the permission engine (they change the agent's own plan, not the workspace) and
 * concurrency-safe.
 */
abstract class TaskTool<P extends TObject> extends ToolBase<P> {
  constructor(name: string, description: string, inputSchema: P) {
    super({ name, description, inputSchema, effects: [], isReadOnly: true, isConcurrencySafe: true, isStateInjected: true });
  }

  override checkPermissions(): PermissionDecision {
    return PermissionDecision.allow(`${this.name} only changes the agent's task list.`);
  }

  protected store(invocation: ToolInvocation): TaskStore {
    return TaskStore.of(invocation.state!);
  }
}

/** `TaskCreate`: adds a pending task; answers with its id. */
export class TaskCreateTool extends TaskTool<typeof TaskCreateInput> {
  constructor(options: TaskToolOptions = {}) {
    super(options.name ?? 'TaskCreate',
      'Adds a task to your task list (status pending). Use it to plan multi-step work; update the task as you go.', TaskCreateInput);
  }

  override call(input: TaskCreateParams, invocation: ToolInvocation): string {
    const task = this.store(invocation).create(input.subject, input.description, toRecord(input.metadata));
    return `Task #${task.id} created: ${task.subject}`;
  }
}

/** `TaskGet`: one task in full. */
export class TaskGetTool extends TaskTool<typeof TaskGetInput> {
  constructor(options: TaskToolOptions = {}) {
    super(options.name ?? 'TaskGet', 'Shows one task in full: subject, status, owner, description, links and metadata.', TaskGetInput);
  }

  override call(input: TaskGetParams, invocation: ToolInvocation): string | ActionResult {
    const task = this.store(invocation).get(input.taskId);
    return task === undefined ? ActionResult.fail(`Task #${input.taskId} does not exist. Call TaskList to see the tasks.`) : renderTask(task);
  }
}

/** `TaskList`: every task, one line each. */
export class TaskListTool extends TaskTool<typeof TaskListInput> {
  constructor(options: TaskToolOptions = {}) {
    super(options.name ?? 'TaskList', 'Lists every task: id, status, subject, owner, and the open tasks it waits for.', TaskListInput);
  }

  override call(_input: Static<typeof TaskListInput>, invocation: ToolInvocation): string {
    const store = this.store(invocation);
    const tasks = store.list();
    if (tasks.length === 0) return 'No tasks.';
    return tasks.map((task) => {
      const open = task.blockedBy.filter((id) => store.get(id)?.status !== 'completed');
      const owner = task.owner === undefined ? '' : ` (owner: ${task.owner})`;
      const waits = open.length === 0 ? '' : ` [blocked by ${open.map((id) => `#${id}`).join(', ')}]`;
      return `#${task.id} [${task.status}] ${task.subject}${owner}${waits}`;
    }).join('\n');
  }
}

/** `TaskUpdate`: changes fields, adds block links (both ways), or deletes a task (`status: "deleted"`). */
export class TaskUpdateTool extends TaskTool<typeof TaskUpdateInput> {
  constructor(options: TaskToolOptions = {}) {
    super(options.name ?? 'TaskUpdate',
      'Updates a task: subject, description, status (pending, in_progress, completed; deleted removes it), owner, ' +
      'block links (kept both ways) and metadata (null removes a key).', TaskUpdateInput);
  }

  override call(input: TaskUpdateParams, invocation: ToolInvocation): string | ActionResult {
    const store = this.store(invocation);
    const { taskId, status, metadata, ...rest } = input;
    if (status === 'deleted') {
      return store.delete(taskId) ? `Task #${taskId} deleted.` : ActionResult.fail(`Task #${taskId} does not exist. Call TaskList to see the tasks.`);
    }
    const updated = store.update(taskId, { ...rest, status, metadata: toRecord(metadata) });
    return typeof updated === 'string' ? ActionResult.fail(updated) : `Task #${updated.id} updated.\n${renderTask(updated)}`;
  }
}

/** The four task tools, ready for `tools.register(...)`. */
export function taskTools(): [TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool] {
  return [new TaskCreateTool(), new TaskGetTool(), new TaskListTool(), new TaskUpdateTool()];
}

/** The text TaskGet shows for one task. */
export function renderTask(task: Task): string {
  const links = (ids: readonly string[]) => (ids.length === 0 ? '(none)' : ids.map((id) => `#${id}`).join(', '));
  const metadata = Object.keys(task.metadata);
  return [
    `Task #${task.id}: ${task.subject}`,
    `Status: ${task.status}`,
    `Owner: ${task.owner ?? '(none)'}`,
    `Blocks: ${links(task.blocks)}`,
    `Blocked by: ${links(task.blockedBy)}`,
    ...(metadata.length === 0 ? [] : [`Metadata: ${JSON.stringify(task.metadata)}`]),
    '',
    task.description,
  ].join('\n');
}
