import type { ToolContext } from '../context/tool-context';
import type { ActionResult } from '../result';
import { isPlainObject } from '../schema/plain-copy';
import type { Tool } from '../tool/tool';
import { ToolEffect } from '../tool/tool-effect';
import type { ToolFormat } from '../tool/tool-format';
import type { Tools } from '../tools';
import { executeToolCall, type ToolCallOptions } from './execute-tool-calls';
import { objectParameters, type ObjectParameters } from './object-parameters';
import { assertProviderRules, MCP_RULES } from './provider-rules';
import { jsonText, resultText } from './result-text';
import { wellFormedJson } from './well-formed';

/** MCP tool annotations: hints for the client, derived from the tool's effects and approval. */
export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  openWorldHint: boolean;
}

/** One entry of an MCP `tools/list` result: `{"name", "description", "inputSchema", "annotations"}`. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: ObjectParameters;
  annotations: McpToolAnnotations;
}

/**
 * The MCP tool-listing format: `inputSchema` is the params schema as written with `$ref`s only into `$defs`, and
 * `annotations` come from the effects and approval: `readOnlyHint` is `tool.isReadOnly` (a tool that declares no
 * write, network or process effect, or `readOnly: true`; a tool whose effects are not declared is not read-only, so
 * no client auto-runs an undeclared destructive tool), `openWorldHint` for a network effect, and `destructiveHint:
 * true` for a tool that requires approval (otherwise left out: MCP then assumes a tool that is not read-only may be
 * destructive; `false` would be a claim the library cannot make). `inputSchema` keeps a declared `$schema` (MCP's
 * default dialect is JSON Schema 2020-12); a root `allOf` of objects is merged and a root union refused, since clients
 * forward the schema to providers that refuse both (see `objectParameters`).
 */
export const mcpFormat: ToolFormat<McpTool> = {
  id: 'mcp',
  render(tool: Tool, description: string): McpTool {
    const readOnly = tool.isReadOnly;
    const annotations: McpToolAnnotations = { readOnlyHint: readOnly, openWorldHint: tool.hasEffect(ToolEffect.NETWORK) };
    if (!readOnly && tool.requiresApproval) annotations.destructiveHint = true;
    const inputSchema = objectParameters(tool, 'MCP', { keepDialect: true });
    assertProviderRules(tool, description, inputSchema, MCP_RULES);
    return { name: tool.name, description, inputSchema, annotations };
  },
};

/** The `tools/list` result for the tools available in `context` (default: the registry's active context). */
export function mcpListTools(tools: Tools<ActionResult<unknown>>, context?: ToolContext): { tools: McpTool[] } {
  return { tools: tools.getSchema(mcpFormat, context) };
}

/** An MCP `CallToolResult`: text content, the structured value when it is an object, `isError` on failure. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * A result as an MCP `CallToolResult` (provider rule: a failed call is a result with `isError: true`, not a protocol
 * error). `structuredContent` carries a successful plain-object result as well as its JSON text.
 */
export function mcpToolResult(result: ActionResult<unknown>): McpCallToolResult {
  const out: McpCallToolResult = { content: [{ type: 'text', text: resultText(result) }], isError: !result.ok };
  if (result.ok && isPlainObject(result.result)) {
    const text = jsonText(result.result);
    if (text !== undefined) out.structuredContent = wellFormedJson(result.result, text) as Record<string, unknown>;
  }
  return out;
}

/**
 * Serves an MCP `tools/call` request (`params` is the request's `{ name, arguments }`): approval (see
 * {@link ToolCallOptions}; without an `approve` step, calls that need approval are declined), validation, execution.
 * Never rejects: unknown tools, invalid arguments, declined and failed calls are results with `isError: true`.
 */
export async function mcpCallTool(tools: Tools<ActionResult<unknown>>, params: { name: string; arguments?: Record<string, unknown> }, options?: ToolCallOptions): Promise<McpCallToolResult> {
  // A malformed request (no params, a non-string name) still gets a CallToolResult with isError rather than a throw.
  const request = (params ?? {}) as Partial<typeof params>;
  return mcpToolResult(await executeToolCall(tools, { id: '', name: String(request.name ?? ''), args: request.arguments ?? {} }, options));
}
