import { PermissionBehavior } from '../permissions/permission-behavior';
import type { PermissionContext } from '../permissions/permission-context';
import { PermissionDecision } from '../permissions/permission-decision';
import { permissionRule, type PermissionRule } from '../permissions/permission-rule';
import type { ToolChunk } from '../streaming/tool-chunk';
import { composeChunkMiddleware } from '../streaming/tool-chunk-middleware';
import { toChunks } from '../streaming/to-chunks';
import type { Invocation } from './invocation';
import type { ToolInfo as Tool } from './tool-info';
import { ToolEffect } from './tool-effect';

/**
 * A tool's default verdict on a call:
 * - ASK when the call needs approval (`requiresApproval`);
 * - ALLOW when the call only reads or computes (`tool.checkReadOnly(input)`: effects declared and at most
 *   `READS_WORKSPACE`, `effects: []`, or the `readOnly` option);
 * - otherwise PASSTHROUGH: the tool writes, starts processes, talks to the network, or did not declare its effects
 *   (treated as having side effects), so the permission engine decides from its rules and mode (in DEFAULT mode it
 *   asks unless an allow rule covers the call). Without an engine, PASSTHROUGH runs the call, as ALLOW does.
 */
export function defaultCheckPermissions(tool: Tool, input: Record<string, unknown>, context?: PermissionContext): PermissionDecision {
  if (tool.needsApproval(input)) {
    return PermissionDecision.ask(`${tool.name} requires approval before it runs.`, { suggestions: tool.generateSuggestions(input, context) });
  }
  if (readsOnly(tool, input)) return PermissionDecision.allow(`${tool.name} only reads for this call.`);
  const effects = [...tool.effects].filter((effect) => effect !== ToolEffect.READS_WORKSPACE);
  const what = effects.length > 0 ? `declares side effects (${effects.join(', ')})` : 'is not read-only and declares no effects, so it is treated as having side effects';
  return PermissionDecision.passthrough(`${tool.name} ${what}; the permission rules and mode decide.`);
}

/**
 * `tool.checkReadOnly(input)`, where only `true` vouches for the call: a predicate that throws, or returns anything
 * else (a Promise from an `async` predicate, a truthy string from plain JavaScript), is not read-only.
 */
function readsOnly(tool: Tool, input: Record<string, unknown>): boolean {
  try {
    return tool.checkReadOnly(input) === true;
  } catch {
    return false;
  }
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
