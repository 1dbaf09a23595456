/** The built-in task tools (`TaskCreate`, `TaskGet`, `TaskList`, `TaskUpdate`) and their task model. See docs/builtins.md. */
export {
  TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool, taskTools, renderTask,
  TaskCreateInput, TaskGetInput, TaskListInput, TaskUpdateInput,
  type TaskCreateParams, type TaskGetParams, type TaskUpdateParams, type TaskToolOptions,
} from './task-tools';
export { TaskStore, TASKS_STATE_KEY, type Task, type TaskPatch, type TaskStatus, type TaskMetadataValue } from './task-store';
