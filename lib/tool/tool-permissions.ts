import { PermissionBehavior } from '../permissions/permission-behavior';
import { PermissionDecision } from '../permissions/permission-decision';
import { permissionRule, type PermissionRule } from '../permissions/permission-rule';
import type { ToolChunk } from '../streaming/tool-chunk';
import { composeChunkMiddleware } from '../streaming/tool-chunk-middleware';
import { toChunks } from '../streaming/to-chunks';
import type { Invocation } from './invocation';
import type { ToolInfo as Tool } from './tool-info';

/** A tool's default verdict: ASK when the call needs approval (`requiresApproval`), else ALLOW. */
export function defaultCheckPermissions(tool: Tool, input: Record<string, unknown>): PermissionDecision {
  if (!tool.needsApproval(input)) return PermissionDecision.allow(`${tool.name} needs no approval.`);
  return PermissionDecision.ask(`${tool.name} requires approval before it runs`, { suggestions: tool.generateSuggestions(input) });
}

/** The default suggestion: allow every call of the tool. */
export function defaultSuggestions(toolName: string): PermissionRule[] {
  return [permissionRule(toolName, PermissionBehavior.ALLOW)];
}

/** `tool.stream`: the tool's middleware chain around its body, as chunks. */
export function streamTool(tool: Tool, params: Record<string, unknown>, invocation: Invocation): AsyncIterable<ToolChunk> {
  const body = (input: Record<string, unknown>) => toChunks(invokeLazily(tool, input, invocation));
  if (tool.middlewares.length === 0) return body(params);
  return composeChunkMiddleware(tool.middlewares, tool, invocation, body)(params);
}

async function invokeLazily(tool: Tool, input: Record<string, unknown>, invocation: Invocation): Promise<unknown> {
  return tool.invoke(input, invocation);
}
