import type { RegisteredResourceTemplate, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, LoggingLevel, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../context/tool-context';
import type { PermissionEngine } from '../../permissions/permission-engine';
import { PermissionBehavior } from '../../permissions/permission-behavior';
import { decisionAttributes } from '../../permissions/decision-attributes';
import { mcpFormat, type McpTool } from '../../providers/mcp';
import { mcpToolResult } from '../../providers/mcp-result';
import { ToolResultState } from '../../streaming/tool-chunk';
import type { ActionResult } from '../../result';
import type { Tool } from '../../tool/tool';
import type { ExecuteOptions, Tools } from '../../tools';
import { toWellFormed } from '../../text/cut-text';
import { approvalPrompt } from './approval-prompt';
import { progressOf } from '../client/mcp-progress';
import { McpServerError } from './errors';
import { jsonSchemaCarrier } from './json-schema-carrier';
import { isBelowLevel, McpRequest, type McpLogLevels, type McpRequestExtra } from './mcp-request';
import { Sdk1Port } from './sdk1-port';
import { serveToolOutputs } from './serve-tool-outputs';
import { ListChangedTick, withoutListChanged } from './list-changed';
import { answerUnknownTools } from './unknown-tool';
import { listToolsByName } from './tool-order';
import type { McpApprovalStateOptions, McpRequestStates } from './v2/approval-state';
import { sdkServer, type McpSdk1ServerLike } from './mcp-server-like';

/** Options of {@link serveTools} / {@link McpToolServer}. */
export interface ServeToolsOptions {
  /**
   * Decides first for every call (allow runs it, deny gives the denied result, ask asks the user through
   * elicitation). Without it, a tool that needs approval for its arguments (`tool.needsApproval`) asks the user.
   */
  permissions?: PermissionEngine | undefined;
  /**
   * Send progress notifications for status lines and streamed chunks when the client sent a progress token
   * (default true).
   */
  progress?: boolean | undefined;
  /**
   * SDK v2 only: the signing key, lifetime and used-state store of the `requestState` an approval hands the client
   * (MCP 2026-07-28 multi-round-trip requests). Default: a random key of this process, 600 seconds, one
   * `McpMemoryUsedStates` of this process. A fleet behind one URL needs a shared key and a shared store. Pass a
   * `McpRequestStates` that the `McpServer`'s `requestState.verify` hook uses too, so a forged, tampered or expired
   * state is answered with the JSON-RPC error -32602 before any tool runs.
   */
  approvalState?: McpApprovalStateOptions | McpRequestStates | undefined;
}

/**
 * A `Tools` registry served as MCP tools on an `McpServer` you own. Each tool of the registry is registered through
 * the SDK's public `registerTool`, so tools, resources and prompts you register natively on the same server coexist
 * with it: one `tools/list`, one `tools/call`. Build it with {@link serveTools}.
 *
 * - Listing: what `mcpFormat` gives for the registry's active context (name, title, description, `inputSchema` as
 *   written, `outputSchema` for an object `returns`, annotations from effects and approval, `_meta`). The SDK's
 *   `McpServer` (1.x) lists no `icons` for its tools, so a tool's `icons` are not sent. The server's tools, native ones
 *   among them, are listed sorted by name (see {@link serveTools}).
 * - Listing changes (registration, `setGroupsActive` or a `reset_tools` call, `setContext`) update the served tools
 *   and send `notifications/tools/list_changed`; the context of one call does not.
 * - Calls run through the registry's pipeline with a per-call context that also provides {@link McpRequest}; the
 *   client's cancellation aborts the tool's signal; status lines, streamed text and the progress a remote MCP tool
 *   streams (`MCP_PROGRESS` chunks) become progress notifications.
 * - Approval: see {@link ServeToolsOptions.permissions}. The user is asked with an elicitation form; accept runs the
 *   call, decline or cancel gives the declined result; a client without the elicitation capability gets a failed
 *   result saying nobody could approve the call.
 * - Logging: the server declares the `logging` capability and answers `logging/setLevel` itself (per session), so
 *   {@link McpRequest.log} sends what the client asked for, tied to the call. This handler replaces the SDK server's
 *   own, so the server's `sendLoggingMessage(params, sessionId)` is wrapped on this instance to apply the same
 *   per-session level: your own code's log messages honour the client's level too.
 * - `notifications/tools/list_changed` is sent once per change of the registry's listing, and changes in the same
 *   tick (several `tools.action(...)` calls in a row) share one: the SDK's `registerTool` would send one per tool.
 * - A call of a tool the server does not serve (unknown, or in an inactive group) is answered with the JSON-RPC
 *   error -32602 that the MCP specification gives an unknown tool, carrying the registry's message (`Unknown tool
 *   'x'. Available: …`) rather than the SDK's `Tool x not found`.
 * - Output budgets: a result cut by the registry's output budget, whose full text was saved, carries a
 *   `resource_link` to it, and the server answers `resources/read` for it (see `serveToolOutputs`).
 */
export class McpToolServer {
  private readonly registered = new Map<string, { tool: RegisteredTool; entry: McpTool }>();
  private readonly levels: McpLogLevels = new Map();
  private readonly unsubscribe: () => void;
  private readonly progressEnabled: boolean;
  private readonly outputs: RegisteredResourceTemplate | undefined;
  private readonly listChangedTick: ListChangedTick;

  /**
   * @throws McpServerError `MCP_TOOL_NAME_TAKEN` when a tool of the registry has the name of one registered
   *   natively on `server`; `MCP_SDK_MISSING` when zod cannot be loaded next to the SDK.
   */
  constructor(
    readonly server: McpSdk1ServerLike,
    readonly tools: Tools<ActionResult<unknown>>,
    private readonly options: ServeToolsOptions = {},
  ) {
    this.progressEnabled = options.progress ?? true;
    this.listChangedTick = new ListChangedTick(server);
    this.installLogging();
    this.outputs = serveToolOutputs(server, tools);
    this.sync(true);
    this.unsubscribe = tools.onListChange(() => this.sync(false));
  }

  /** Stops following the registry's listing changes and removes its tools from the server (native tools stay). */
  close(): void {
    this.unsubscribe();
    this.outputs?.remove();
    for (const { tool } of this.registered.values()) tool.remove();
    this.registered.clear();
  }

  /** Brings the served tools in line with the registry's listing and announces a change (one `notifications/tools/list_changed` per tick). */
  private sync(initial: boolean): void {
    const listed = new Map(this.tools.getSchema(mcpFormat).map((entry) => [entry.name, entry]));
    let changed = false;
    for (const [name, served] of this.registered) {
      const entry = listed.get(name);
      const enabled = entry !== undefined;
      if (served.tool.enabled !== enabled) {
        served.tool.enabled = enabled;
        changed = true;
      }
      if (entry === undefined) continue;
      if (served.entry !== entry) {
        Object.assign(served.tool, this.toolFields(entry));
        served.entry = entry;
        changed = true;
      }
    }
    const added = withoutListChanged(sdkServer(this.server) as never, () => {
      for (const [name, entry] of listed) {
        if (this.registered.has(name)) continue;
        let tool: RegisteredTool;
        try {
          tool = sdkServer(this.server).registerTool(name, this.toolFields(entry), ((args: Record<string, unknown>, extra: McpRequestExtra) => this.call(name, args, extra)) as never);
        } catch (error) {
          const taken = new McpServerError('MCP_TOOL_NAME_TAKEN', `Tool '${name}' is already registered on this McpServer natively; register the registry's tool under another name (tools.register({ instance, prefix })) or rename the native one.`, { cause: error });
          if (initial) throw taken;
          console.warn(taken.message);
          continue;
        }
        this.registered.set(name, { tool, entry });
      }
    });
    answerUnknownTools(this.server, this.tools);
    listToolsByName(this.server);
    if (changed || added) this.listChangedTick.request();
  }



  private toolFields(entry: McpTool): { title?: string; description: string; inputSchema: never; outputSchema?: never; annotations: ToolAnnotations; _meta?: Record<string, unknown> } {
    return {
      ...(entry.title === undefined ? {} : { title: entry.title }),
      description: entry.description,
      inputSchema: jsonSchemaCarrier(entry.inputSchema) as never,
      ...(entry.outputSchema === undefined ? {} : { outputSchema: jsonSchemaCarrier(entry.outputSchema) as never }),
      annotations: { ...entry.annotations },
      ...(entry._meta === undefined ? {} : { _meta: { ...entry._meta } }),
    };
  }

  /**
   * Declares `logging`, answers `logging/setLevel` with a per-session level, and makes the server's own
   * `sendLoggingMessage` honour that level (see the class docs).
   */
  private installLogging(): void {
    const low = sdkServer(this.server).server;
    if (!this.server.isConnected()) low.registerCapabilities({ logging: {} });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- SDK 1.x (optional peer dependency), loaded when a 1.x server is served
    const { SetLevelRequestSchema } = require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
    try {
      low.setRequestHandler(SetLevelRequestSchema, (request, extra) => {
        // The session as the SDK's own handler keys it.
        const header = extra.requestInfo?.headers['mcp-session-id'];
        const sessionId = extra.sessionId || (typeof header === 'string' ? header : undefined) || undefined;
        this.levels.set(sessionId, request.params.level as LoggingLevel);
        return {};
      });
    } catch {
      return; // served on a connected server that did not declare logging: capabilities are fixed, there is no logging
    }
    const send = low.sendLoggingMessage.bind(low);
    low.sendLoggingMessage = (params, sessionId) => (isBelowLevel(this.levels, params.level, sessionId) ? Promise.resolve() : send(params, sessionId));
  }

  /**
   * One `tools/call`: approval, then the registry's pipeline with the MCP request in the call's context. The common
   * path (no approval, no progress token) adds no async step of its own around `execute`: a served call should cost
   * about what the SDK's own `registerTool` handler costs.
   */
  private call(name: string, args: Record<string, unknown>, extra: McpRequestExtra): Promise<CallToolResult> {
    const request = new McpRequest(new Sdk1Port(this.server, extra, this.levels));
    // The client's trace context (`traceparent`, `tracestate`, `baggage` in `params._meta`): with the registry's
    // telemetry, the call's execute_tool span continues the client's trace; no server span is added around it.
    const options: ExecuteOptions = { context: this.tools.context.clone().provide(request), signal: extra.signal, callId: String(extra.requestId), traceContext: extra._meta };
    return this.decide(name, args, options, request).then(toCallToolResult);
  }

  private decide(name: string, args: Record<string, unknown>, options: ExecuteOptions, request: McpRequest): Promise<ActionResult<unknown>> {
    const tool = this.tools.get(name);
    if (tool === undefined) return this.tools.execute(name, args, options);
    if (this.options.permissions !== undefined) return this.decideWith(this.options.permissions, tool, args, options, request);
    if (needsApproval(tool, args, options.context ?? this.tools.context)) return this.approveThenRun(tool, args, options, request);
    return this.run(name, args, options, request, tool);
  }

  /** The permission engine decides first: allow runs the call, deny gives the denied result, ask asks the user. */
  private async decideWith(permissions: PermissionEngine, tool: Tool, args: Record<string, unknown>, options: ExecuteOptions, request: McpRequest): Promise<ActionResult<unknown>> {
    const decision = await permissions.check(tool, args);
    if (decision.behavior === PermissionBehavior.DENY) return this.tools.denied(tool.name, decision.message);
    const input = decision.updatedInput ?? args;
    if (decision.behavior === PermissionBehavior.ASK) return this.approveThenRun(tool, input, { ...options, traceAttributes: decisionAttributes(decision, permissions.mode) }, request);
    // The engine's ALLOW (a rule, the mode) is the approval an approval-gated tool needs.
    return this.run(tool.name, input, { ...options, approved: true, traceAttributes: decisionAttributes(decision, permissions.mode) }, request, tool);
  }

  /** Asks the connected user through elicitation; only an accepted request runs the call. */
  private async approveThenRun(tool: Tool, args: unknown, options: ExecuteOptions, request: McpRequest): Promise<ActionResult<unknown>> {
    if (!this.canElicit(request)) return this.tools.unapproved(tool.name, NO_ELICITATION);
    if (!(await this.askUser(request, tool, args))) return this.tools.declined(tool.name);
    return this.run(tool.name, args, { ...options, approved: true }, request, tool);
  }

  /** Runs the call; with a progress token, streams it and reports the status line and each text chunk as progress. */
  private run(name: string, args: unknown, options: ExecuteOptions, request: McpRequest, tool: Tool): Promise<ActionResult<unknown>> {
    if (!this.progressEnabled || request.progressToken === undefined) return this.tools.execute(name, args, options);
    return this.runWithProgress(name, args, options, request, tool);
  }

  private async runWithProgress(name: string, args: unknown, options: ExecuteOptions, request: McpRequest, tool: Tool): Promise<ActionResult<unknown>> {
    await request.step(tool.formatStatus(args));
    const stream = this.tools.stream(name, args, options);
    for await (const chunk of stream) {
      if (chunk.state !== ToolResultState.RUNNING) continue; // the final response: it is the call's result, not progress
      const text = chunk.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (text !== '') await request.step(text);
      const relayed = progressOf(chunk); // a remote MCP tool's own progress, passed on
      if (relayed !== undefined) await request.step(relayed.message ?? (relayed.total === undefined ? String(relayed.progress) : `${relayed.progress}/${relayed.total}`));
    }
    return stream.result;
  }

  private canElicit(request: McpRequest): boolean {
    return request.clientCapabilities?.elicitation !== undefined;
  }

  /** Asks the connected user to approve one call; only `accept` approves. */
  private async askUser(request: McpRequest, tool: Tool, args: unknown): Promise<boolean> {
    try {
      const answer = await request.elicitInput({ mode: 'form', message: approvalPrompt(tool.name, args), requestedSchema: { type: 'object', properties: {} } });
      return answer.action === 'accept';
    } catch {
      return false; // a failed or cancelled request approves nothing
    }
  }
}

/**
 * @internal `mcpToolResult(result)`, with a shortcut for the commonest successes (a string, a finite number or a boolean), whose
 * MCP result is one text block: the string made well-formed, or the value's JSON text.
 */
export function toCallToolResult(result: ActionResult<unknown>): CallToolResult {
  if (result.ok) {
    const value = result.result;
    const text = typeof value === 'string' ? toWellFormed(value) : typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ? JSON.stringify(value) : undefined;
    if (text !== undefined) return { content: [{ type: 'text', text }], isError: false };
  }
  return mcpToolResult(result) as CallToolResult;
}

/** @internal The unapproved result's reason when the client cannot be asked. */
export const NO_ELICITATION = 'the MCP client does not support elicitation, so nobody can approve the call';

/** @internal Whether the call needs the user's approval; a check that throws fails closed (asks). */
export function needsApproval(tool: Tool, args: unknown, context: ToolContext): boolean {
  try {
    return tool.isAvailable(context) && tool.needsApproval(args);
  } catch {
    return true;
  }
}
