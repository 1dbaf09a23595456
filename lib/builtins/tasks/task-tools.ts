import { deepFreeze } from '../../schema/deep-freeze';
import type { ObjectSchema } from '../../schema/schema-types';
import { PermissionDecision } from '../../permissions/permission-decision';
import { ActionResult } from '../../result';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolBase } from '../../tool/tool-base';
import { TaskStore, type Task, type TaskMetadataValue } from './task-store';

function toRecord(pairs: ReadonlyArray<{ key: string; value: TaskMetadataValue | null }> | undefined): Record<string, TaskMetadataValue | null> | undefined {
  if (pairs === undefined) return undefined;
  const out: Record<string, TaskMetadataValue | null> = Object.create(null) as Record<string, TaskMetadataValue | null>;
  for (const { key, value } of pairs) out[key] = value;
  return out;
}

// Metadata is a list of pairs rather than a free-keyed map: strict provider modes (OpenAI) need every object key declared.
/** The JSON Schema of the `TaskCreate` tool's params: `subject`, `description`, optional metadata pairs. */
export const TaskCreateInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['subject', 'description'],
  properties: {
    subject: {
      minLength: 1,
      description: 'A short imperative title, for example "Fix the login test".',
      type: 'string',
    },
    description: { description: 'What needs to be done, and how to tell it is done.', type: 'string' },
    metadata: {
      description: 'Key-value notes on the task, as {key, value} pairs; on update a null value removes its key.',
      type: 'array',
      items: {
        additionalProperties: false,
        type: 'object',
        required: ['key', 'value'],
        properties: {
          key: { minLength: 1, type: 'string' },
          value: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
        },
      },
    },
  },
} as const);

/** The JSON Schema of the `TaskGet` tool's params: `taskId`. */
export const TaskGetInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['taskId'],
  properties: {
    taskId: { description: 'The task id, as TaskCreate or TaskList gave it (for example "3").', type: 'string' },
  },
} as const);

/** The JSON Schema of the `TaskList` tool's params: none. */
export const TaskListInput = deepFreeze({ additionalProperties: false, type: 'object', properties: {} } as const);

/** The JSON Schema of the `TaskUpdate` tool's params: `taskId` and the fields to change. */
export const TaskUpdateInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['taskId'],
  properties: {
    taskId: { description: 'The task id, as TaskCreate or TaskList gave it (for example "3").', type: 'string' },
    subject: { minLength: 1, type: 'string' },
    description: { type: 'string' },
    status: {
      description: 'pending, in_progress, completed, or deleted to remove the task (and every link to it).',
      anyOf: [
        { const: 'pending', type: 'string' },
        { const: 'in_progress', type: 'string' },
        { const: 'completed', type: 'string' },
        { const: 'deleted', type: 'string' },
      ],
    },
    owner: { description: 'Who works on the task (an agent name).', type: 'string' },
    addBlocks: {
      description: 'Tasks that cannot start until this one is completed.',
      type: 'array',
      items: { description: 'The task id, as TaskCreate or TaskList gave it (for example "3").', type: 'string' },
    },
    addBlockedBy: {
      description: 'Tasks that must be completed before this one.',
      type: 'array',
      items: { description: 'The task id, as TaskCreate or TaskList gave it (for example "3").', type: 'string' },
    },
    metadata: {
      description: 'Key-value notes on the task, as {key, value} pairs; on update a null value removes its key.',
      type: 'array',
      items: {
        additionalProperties: false,
        type: 'object',
        required: ['key', 'value'],
        properties: {
          key: { minLength: 1, type: 'string' },
          value: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
        },
      },
    },
  },
} as const);

/** One metadata pair of a task call; on update a null value removes its key. */
export type TaskMetadataPair = { key: string; value: string | number | boolean | null };
/** The params of a TaskCreate call, as {@link TaskCreateInput} describes them. */
export type TaskCreateParams = { subject: string; description: string; metadata?: TaskMetadataPair[] };
/** The params of a TaskGet call. */
export type TaskGetParams = { taskId: string };
/** The params of a TaskUpdate call, as {@link TaskUpdateInput} describes them. */
export type TaskUpdateParams = {
  taskId: string;
  subject?: string;
  description?: string;
  status?: 'pending' | 'in_progress' | 'completed' | 'deleted';
  owner?: string;
  addBlocks?: string[];
  addBlockedBy?: string[];
  metadata?: TaskMetadataPair[];
};

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
abstract class TaskTool<P extends ObjectSchema> extends ToolBase<P> {
  constructor(name: string, description: string, inputSchema: P) {
    super({ name, description, inputSchema, effects: [], isReadOnly: true, isConcurrencySafe: true, isStateInjected: true });
  }

  override checkPermissions(): PermissionDecision {
    return PermissionDecision.allow(`${this.name} only changes the agent's task list.`);
  }

  /** The task list of the agent state the call runs with. */
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

  override call(_input: Record<string, never>, invocation: ToolInvocation): string {
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
