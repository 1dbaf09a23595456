import type { ActionResult } from '../../result';
import type { Tools } from '../../tools';
import { sdkServer, type McpSdk1ServerLike } from './mcp-server-like';

/** JSON-RPC "Invalid params": the code the MCP specification ("Tools", "Error Handling") gives an unknown tool. */
export const UNKNOWN_TOOL_CODE = -32602;

/**
 * @internal The JSON-RPC error answered to a `tools/call` of a tool the server does not serve: code -32602, as the
 * MCP specification and the SDK use, with `message` (the registry's own text, which names the tools available) in
 * place of the SDK's `Tool <name> not found`. A plain `Error` with a `code`: the SDK sends `code` and `message` as
 * they are (its `McpError` would prefix the message with `MCP error -32602: `, which the client adds again).
 */
export function unknownToolError(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: UNKNOWN_TOOL_CODE });
}

type Handler = (request: { params?: { name?: unknown } }, extra: unknown) => Promise<unknown>;
interface SdkInternals {
  readonly _registeredTools: Readonly<Record<string, { enabled: boolean } | undefined>>;
  readonly server: { readonly _requestHandlers: Map<string, Handler> };
}
const WRAPPED = Symbol('agenttoolkit.unknownTool');
const ABORTED = AbortSignal.abort();

/**
 * @internal Puts {@link unknownToolError} in front of the SDK's `tools/call` handler of `server` (once; a no-op
 * until the SDK has installed it, at its first `registerTool`): a call of a name the server serves no enabled tool
 * under is answered with the registry's message for it (`Unknown tool 'x'. Available: …`, or the inactive group's
 * text); every other call goes to the SDK's handler unchanged.
 */
export function answerUnknownTools(server: McpSdk1ServerLike, tools: Tools<ActionResult<unknown>>): void {
  const sdk = sdkServer(server) as unknown as SdkInternals;
  const handlers = sdk.server._requestHandlers;
  const own = handlers.get('tools/call') as (Handler & { [WRAPPED]?: true }) | undefined;
  if (own === undefined || own[WRAPPED]) return;
  // Not async: a call of a served tool goes to the SDK's handler with no step of its own.
  const wrapped: Handler & { [WRAPPED]?: true } = (request, extra) => {
    const name = request.params?.name;
    if (typeof name !== 'string' || sdk._registeredTools[name]?.enabled === true) return own(request, extra);
    // An aborted signal: the registry resolves the name and words the refusal, and never runs a tool.
    return tools.execute(name, undefined, { signal: ABORTED }).then((result) => {
      throw unknownToolError(result.error ?? `Unknown tool '${name}'.`);
    });
  };
  wrapped[WRAPPED] = true;
  handlers.set('tools/call', wrapped);
}
