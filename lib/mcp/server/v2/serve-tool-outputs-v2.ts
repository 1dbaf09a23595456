import type { McpServer, RegisteredResourceTemplate } from '@modelcontextprotocol/server';
import type { ActionResult } from '../../../result';
import type { Tools } from '../../../tools';
import { OUTPUTS_METADATA, OUTPUTS_TEMPLATE, savedOutput, TOOL_OUTPUTS_RESOURCE } from '../serve-tool-outputs';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';
import { serverSdk } from './sdk-v2';

/**
 * @internal `serveToolOutputs` on an SDK v2 `McpServer`: the `tool-output://{id}` template through the SDK's
 * `registerResource`; an unknown id answers the SDK's `ResourceNotFoundError` (-32002). Nothing is registered when no
 * budget of the registry has a workspace.
 */
export function serveToolOutputsV2(server: McpSdk2ServerLike, tools: Tools<ActionResult<unknown>>): RegisteredResourceTemplate | undefined {
  if (!tools.outputBudgets.savesOutputs) return undefined;
  const { ResourceTemplate, ResourceNotFoundError } = serverSdk();
  const template = new ResourceTemplate(OUTPUTS_TEMPLATE, { list: undefined });
  return (server as unknown as McpServer).registerResource(TOOL_OUTPUTS_RESOURCE, template, OUTPUTS_METADATA, (uri) =>
    savedOutput(tools, uri.href, () => new ResourceNotFoundError(uri.href)));
}
