import type { RegisteredResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { OUTPUT_URI_PREFIX } from '../../budget/output-budget';
import type { ActionResult } from '../../result';
import type { Tools } from '../../tools';
import { sdkServer, type McpSdk1ServerLike } from './mcp-server-like';

/** The name of the resource template that serves saved outputs. */
export const TOOL_OUTPUTS_RESOURCE = 'tool-outputs';

/**
 * Serves the outputs that `tools`' output budgets saved (see docs/output-budgets.md) as MCP resources: a resource
 * template `tool-output://{id}` registered through the SDK's public `registerResource`, beside any resources you
 * register yourself. `resources/read` of a saved output's URI (the `resource_link` a cut result carries) answers its
 * full text as `text/plain`; any other URI of the scheme is not found (`InvalidParams`, as the SDK answers an unknown
 * resource). Saved outputs are not listed in `resources/list`. Nothing is registered when no budget of the registry
 * has a workspace.
 * @returns the registered template (`remove()` takes it off), or undefined when nothing was registered.
 */
export function serveToolOutputs(server: McpSdk1ServerLike, tools: Tools<ActionResult<unknown>>): RegisteredResourceTemplate | undefined {
  if (!tools.outputBudgets.savesOutputs) return undefined;
  /* eslint-disable @typescript-eslint/no-require-imports -- SDK 1.x (optional peer dependency), loaded when a 1.x server is served */
  const { ResourceTemplate } = require('@modelcontextprotocol/sdk/server/mcp.js') as typeof import('@modelcontextprotocol/sdk/server/mcp.js');
  const { ErrorCode, McpError } = require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const template = new ResourceTemplate(OUTPUTS_TEMPLATE, { list: undefined });
  return sdkServer(server).registerResource(TOOL_OUTPUTS_RESOURCE, template, OUTPUTS_METADATA, (uri): Promise<ReadResourceResult> =>
    savedOutput(tools, uri.href, () => new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`)));
}

/** @internal The URI template of saved outputs, `tool-output://{id}`. */
export const OUTPUTS_TEMPLATE = `${OUTPUT_URI_PREFIX}{id}`;

/** @internal The metadata of the saved-outputs resource template (both SDK lines). */
export const OUTPUTS_METADATA = { title: 'Saved tool outputs', description: 'The full text of tool outputs that were cut to fit the output budget.', mimeType: 'text/plain' };

/** @internal `resources/read` of a saved output: its full text, or the SDK line's not-found error from `notFound`. */
export async function savedOutput(tools: Tools<ActionResult<unknown>>, uri: string, notFound: () => Error): Promise<{ contents: [{ uri: string; mimeType: string; text: string }] }> {
  const text = await tools.outputBudgets.read(uri);
  if (text === undefined) throw notFound();
  return { contents: [{ uri, mimeType: 'text/plain', text }] };
}
