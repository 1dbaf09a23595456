import type { ToolContext } from '../context/tool-context';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import { ToolEffect } from '../tool/tool-effect';
import type { ToolFormat } from '../tool/tool-format';
import type { Tools } from '../tools';
import { executeToolCall, type ToolCallOptions } from './execute-tool-calls';
import { mcpToolExtras } from './mcp-extras';
import { mcpToolResult, type McpCallToolResult } from './mcp-result';
import type { ObjectParameters } from './object-parameters';
import { assertProviderRules, MCP_RULES } from './provider-rules';

/** MCP tool annotations: hints for the client, derived from the tool's effects and approval. */
export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  /** Left out for a tool whose effects are not declared: MCP then assumes it may reach an open world. */
  openWorldHint?: boolean;
}

/** One entry of an MCP `tools/list` result: `{"name", "title"?, "icons"?, "description", "inputSchema", "outputSchema"?, "annotations", "_meta"?}`. */
export interface McpTool {
  name: string;
  title?: string;
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
  description: string;
  inputSchema: ObjectParameters;
  outputSchema?: ObjectParameters;
  annotations: McpToolAnnotations;
  _meta?: Record<string, unknown>;
}

/**
 * The MCP tool-listing format: `inputSchema` is the params schema as written with `$ref`s only into `$defs`, and
 * `annotations` come from the effects and approval: `readOnlyHint` is `tool.isReadOnly` (a tool that declares no
 * write, network or process effect, or `readOnly: true`; a tool whose effects are not declared is not read-only, so
 * no client auto-runs an undeclared destructive tool), `openWorldHint` for a network effect (left out when the
 * effects are not declared: they are unknown, and MCP's default for an absent hint is `true`), and `destructiveHint:
 * true` for a tool that requires approval (otherwise left out: MCP then assumes a tool that is not read-only may be
 * destructive; `false` would be a claim the library cannot make). The `title`, `icons` and `meta` options become
 * `title`, `icons` and `_meta`; a `returns` object schema becomes `outputSchema` (a `returns` schema of another type
 * is not listed: MCP's `outputSchema` and `structuredContent` are objects). See the MCP specification 2025-06-18,
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool. `inputSchema` keeps a declared `$schema`
 * (MCP's default dialect is JSON Schema 2020-12); a root `allOf` of objects is merged and a root union refused, since
 * clients forward the schema to providers that refuse both (see `objectParameters`).
 */
export const mcpFormat: ToolFormat<McpTool> = {
  id: 'mcp',
  render(tool: Tool, description: string): McpTool {
    const readOnly = tool.isReadOnly;
    const annotations: McpToolAnnotations = { readOnlyHint: readOnly };
    if (tool.effectsDeclared) annotations.openWorldHint = tool.hasEffect(ToolEffect.NETWORK);
    if (!readOnly && tool.requiresApproval) annotations.destructiveHint = true;
    const entry = mcpToolExtras(tool, description);
    assertProviderRules(tool, description, entry.inputSchema, MCP_RULES);
    return { ...entry, annotations };
  },
};

/** The `tools/list` result for the tools available in `context` (default: the registry's active context). */
export function mcpListTools(tools: Tools<ActionResult<unknown>>, context?: ToolContext): { tools: McpTool[] } {
  return { tools: tools.getSchema(mcpFormat, context) };
}

export { mcpToolResult, type McpCallToolResult, type McpContent } from './mcp-result';

/**
 * Serves an MCP `tools/call` request (`params` is the request's `{ name, arguments }`): approval (see
 * {@link ToolCallOptions}; without an `approve` step, calls that need approval are declined), validation, execution.
 * Never rejects: unknown tools, invalid arguments, declined and failed calls are results with `isError: true`.
 */
export async function mcpCallTool(tools: Tools<ActionResult<unknown>>, params: { name: string; arguments?: Record<string, unknown> | undefined }, options?: ToolCallOptions): Promise<McpCallToolResult> {
  // A malformed request (no params, a non-string name) still gets a CallToolResult with isError rather than a throw.
  const request = (params ?? {}) as Partial<typeof params>;
  return mcpToolResult(await executeToolCall(tools, { id: '', name: String(request.name ?? ''), args: request.arguments ?? {} }, options));
}
