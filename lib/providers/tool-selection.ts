import type { ToolContext } from '../context/tool-context';
import { CoreError } from '../errors';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';

/** Which tools of a registry an adapter hands over: by name, by group, or all of them. */
export interface ToolSelection {
  /** Only the tools with these names (default: every tool). A name not registered throws. */
  names?: readonly string[] | undefined;
  /** Only the tools of these groups (`@ToolGroup`, or the `group` option). Combined with `names`, both must hold. */
  groups?: readonly string[] | undefined;
  /** The context tools are listed and run in (default: the registry's active context at each call). */
  context?: ToolContext | undefined;
}

/**
 * The predicate a listing entry's tool must pass for `selection`.
 * @throws CoreError `INVALID_OPTION` when a name in `names` is not registered.
 */
export function selectionFilter(tools: Tools<ActionResult<unknown>>, selection: ToolSelection): (tool: Tool) => boolean {
  const names = selection.names === undefined ? undefined : new Set(selection.names);
  const groups = selection.groups === undefined ? undefined : new Set(selection.groups);
  const unknown = [...(names ?? [])].filter((name) => tools.get(name) === undefined);
  if (unknown.length > 0) throw new CoreError('INVALID_OPTION', `No tool named ${unknown.map((n) => `'${n}'`).join(', ')} is registered.`);
  return (tool) => (names === undefined || names.has(tool.name)) && (groups === undefined || groups.has(tool.group));
}

/** Whether `tool` asks for approval for these arguments in `context`; an availability check or predicate that throws says yes. */
export function callNeedsApproval(tool: Tool, args: unknown, context: ToolContext): boolean {
  try {
    return tool.isAvailable(context) && tool.needsApproval(args);
  } catch {
    return true;
  }
}
