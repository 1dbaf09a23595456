import type { CallToolResult, InputRequiredResult, McpServer, RegisteredResourceTemplate, RegisteredTool, ServerContext, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { PermissionEngine } from '../../../permissions/permission-engine';
import { PermissionBehavior } from '../../../permissions/permission-behavior';
import { decisionAttributes } from '../../../permissions/decision-attributes';
import { mcpFormat, type McpTool } from '../../../providers/mcp';
import { ToolResultState } from '../../../streaming/tool-chunk';
import type { ActionResult } from '../../../result';
import type { Tool } from '../../../tool/tool';
import type { ExecuteOptions, Tools } from '../../../tools';
import { progressOf } from '../../client/mcp-progress';
import { approvalPrompt } from '../approval-prompt';
import { ListChangedTick, withoutListChanged } from '../list-changed';
import { McpServerError } from '../errors';
import { McpRequest } from '../mcp-request';
import { listToolsByName } from '../tool-order';
import { Sdk2Port } from './sdk2-port';
import { needsApproval, NO_ELICITATION, toCallToolResult } from '../mcp-tool-server';
import { McpRequestStates, type ApprovalStateRefusal, type McpApprovalStateOptions, type RoundsPayload } from './approval-state';
import { InputRounds } from './input-rounds';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';
import { serverSdk } from './sdk-v2';
import { serveToolOutputsV2 } from './serve-tool-outputs-v2';

/** The key of the approval question in an `input_required` result's `inputRequests`. */
export const APPROVAL_INPUT_KEY = 'approval';

/** The options of a served registry on SDK v2 (the fields `ServeToolsOptions` adds for it). */
export interface ServeToolsV2Options {
  permissions?: PermissionEngine | undefined;
  progress?: boolean | undefined;
  approvalState?: McpApprovalStateOptions | McpRequestStates | undefined;
}

const REFUSED: Record<ApprovalStateRefusal, string> = {
  invalid: 'the approval or answers it came back with (requestState) are forged, expired or for another client; call the tool again to be asked anew',
  foreign: 'the approval or answers it came back with (requestState) were given for another call (another tool or other arguments); call the tool again to be asked anew',
  replayed: 'the approval or answers it came back with (requestState) were used already (a state serves one retry); call the tool again to be asked anew',
};

/** What one call knows of its earlier rounds: the verified state (none on a first call) and the tool's questions. */
interface Rounds {
  readonly payload: RoundsPayload | undefined;
  /** The tool's own questions as `input_required` rounds; undefined on a session, where they are requests. */
  readonly questions: InputRounds | undefined;
}

/**
 * A `Tools` registry served on an SDK v2 `McpServer` (`@modelcontextprotocol/server` 2.x), built by `serveTools`.
 * Each tool is registered through the SDK's `registerTool` with a pass-through Standard Schema whose JSON Schema is
 * the registry's own (validation stays with the registry), so native tools, prompts and resources coexist with it.
 *
 * - Approval (a permission engine's ask, or `tool.needsApproval`) is a multi-round-trip request (MCP 2026-07-28,
 *   `input_required`): the call answers with an elicitation form (the question from `approvalPrompt`) and a signed
 *   `requestState` bound to the exact call; the client's retry with the user's answer runs the call when the state
 *   verifies, matches the call and was not used before (`ServeToolsOptions.approvalState`). On a 2025-11-25 session the
 *   SDK's legacy shim turns the same answer into an `elicitation/create` request, so one code path serves both.
 * - Progress (status lines, streamed text, relayed remote progress) and logs go through the request's context; the
 *   server declares `logging`, so the SDK answers `logging/setLevel` per session and honours
 *   the log level a 2026-07-28 request carries (none: no log messages, as that revision deprecates logging).
 * - Saved outputs: when a budget of the registry saves outputs, the `tool-output://{id}` template answers
 *   `resources/read` for the `resource_link` a cut result carries (as `serveToolOutputs` does on 1.x).
 * - Listing changes: on a session (2025-11-25) `notifications/tools/list_changed` once per tick; 2026-07-28 clients
 *   learn of them through `subscriptions/listen`, which `serveHttp` feeds (`handler.notify.toolsChanged()`). A changed
 *   tool is removed and registered again, so the server's tools, native ones among them, are listed sorted by name
 *   rather than in the SDK's registration order (see `serveTools`).
 */
export class McpToolServerV2 {
  private readonly registered = new Map<string, { tool: RegisteredTool; entry: McpTool }>();
  private readonly unsubscribe: () => void;
  private readonly progressEnabled: boolean;
  private readonly approvals: McpRequestStates;
  private readonly outputs: RegisteredResourceTemplate | undefined;
  private readonly listChangedTick: ListChangedTick;

  /** @throws McpServerError `MCP_TOOL_NAME_TAKEN` when a tool of the registry has the name of a native tool. */
  constructor(
    readonly server: McpSdk2ServerLike,
    readonly tools: Tools<ActionResult<unknown>>,
    private readonly options: ServeToolsV2Options = {},
  ) {
    this.progressEnabled = options.progress ?? true;
    this.listChangedTick = new ListChangedTick(server);
    this.approvals = options.approvalState instanceof McpRequestStates ? options.approvalState : new McpRequestStates(options.approvalState);
    // The SDK then answers logging/setLevel; a server connected already keeps the capabilities it has (fixed then).
    if (!server.isConnected()) server.server.registerCapabilities({ logging: {} });
    this.outputs = serveToolOutputsV2(server, tools);
    this.sync(true);
    this.unsubscribe = tools.onListChange(() => this.sync(false));
  }

  /** Stops following the registry and removes its tools and the saved-outputs template from the server (native ones stay). */
  close(): void {
    this.unsubscribe();
    for (const { tool } of this.registered.values()) tool.remove();
    this.registered.clear();
    this.outputs?.remove();
  }

  private get sdk(): McpServer {
    return this.server as unknown as McpServer;
  }

  private sync(initial: boolean): void {
    const listed = new Map(this.tools.getSchema(mcpFormat).map((entry) => [entry.name, entry]));
    const asked = withoutListChanged(this.sdk as never, () => {
      for (const [name, served] of this.registered) {
        if (listed.get(name) === served.entry) continue;
        served.tool.remove();
        this.registered.delete(name);
      }
      for (const [name, entry] of listed) {
        if (this.registered.has(name)) continue;
        let tool: RegisteredTool;
        try {
          tool = this.sdk.registerTool(name, toolConfig(entry), ((args: Record<string, unknown>, ctx: ServerContext) => this.call(name, args, ctx)) as never);
        } catch (error) {
          const taken = new McpServerError('MCP_TOOL_NAME_TAKEN', `Tool '${name}' is already registered on this McpServer natively; register the registry's tool under another name (tools.register({ instance, prefix })) or rename the native one.`, { cause: error });
          if (initial) throw taken;
          console.warn(taken.message);
          continue;
        }
        this.registered.set(name, { tool, entry });
      }
    });
    listToolsByName(this.server);
    if (asked && !initial) this.listChangedTick.request();
  }



  /**
   * One `tools/call`. A call without a `requestState` (the common one) adds no async step of its own around the
   * registry's `execute`: a served call should cost about what the SDK's own `registerTool` handler costs.
   */
  private call(name: string, args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    // What throws here reaches the SDK as a rejection: it calls the handler from an async function.
    const state = ctx.mcpReq.requestState();
    if (state === undefined) return this.callOpened(name, args, ctx, undefined);
    return this.approvals.open(state, name, args, ctx).then((opened) => (typeof opened === 'string' ? toCallToolResult(this.tools.unapproved(name, REFUSED[opened])) : this.callOpened(name, args, ctx, opened)));
  }

  /** The call once its state (if any) verified: the registry's pipeline with the MCP request in the call's context. */
  private callOpened(name: string, args: Record<string, unknown>, ctx: ServerContext, opened: RoundsPayload | undefined): Promise<CallToolResult | InputRequiredResult> {
    const questions = isStateless(ctx) ? new InputRounds(opened?.answers, opened?.asked, ctx.mcpReq.inputResponses, [APPROVAL_INPUT_KEY]) : undefined;
    const rounds: Rounds = { payload: opened, questions };
    const request = new McpRequest(new Sdk2Port(this.server, ctx, questions));
    // The client's trace context (`traceparent`, `tracestate`, `baggage` in `params._meta`), as on SDK 1.x: the call's
    // execute_tool span continues the client's trace, with no server span around it.
    const options: ExecuteOptions = { context: this.tools.context.clone().provide(request), signal: ctx.mcpReq.signal, callId: String(ctx.mcpReq.id), traceContext: ctx.mcpReq._meta };
    return this.decide(name, args, options, request, ctx, rounds).then(toAnswer);
  }

  private decide(name: string, args: Record<string, unknown>, options: ExecuteOptions, request: McpRequest, ctx: ServerContext, rounds: Rounds): Promise<ActionResult<unknown> | InputRequiredResult> {
    const tool = this.tools.get(name);
    if (tool === undefined) return this.tools.execute(name, args, options);
    if (this.options.permissions !== undefined) return this.decideByPermissions(tool, args, options, request, ctx, rounds, this.options.permissions);
    if (needsApproval(tool, args, options.context ?? this.tools.context)) return this.approveThenRun(tool, args, args, options, request, ctx, rounds);
    return this.runRounds(tool, args, args, options, request, ctx, rounds, false);
  }

  private async decideByPermissions(tool: Tool, args: Record<string, unknown>, options: ExecuteOptions, request: McpRequest, ctx: ServerContext, rounds: Rounds, permissions: PermissionEngine): Promise<ActionResult<unknown> | InputRequiredResult> {
    const decision = await permissions.check(tool, args);
    if (decision.behavior === PermissionBehavior.DENY) return this.tools.denied(tool.name, decision.message);
    const input = decision.updatedInput ?? args;
    const traced = { ...options, traceAttributes: decisionAttributes(decision, permissions.mode) };
    if (decision.behavior === PermissionBehavior.ASK) return this.approveThenRun(tool, args, input, traced, request, ctx, rounds);
    return this.runRounds(tool, args, input, { ...traced, approved: true }, request, ctx, rounds, false);
  }

  /**
   * The approval round trip: the first entry asks (an `input_required` result with a state bound to `args`, the
   * call as the client sent it); the retry runs `input` when the state holds and the user accepted. A state of a
   * later round says the user approved already (the tool's own questions came after).
   */
  private async approveThenRun(tool: Tool, args: unknown, input: unknown, options: ExecuteOptions, request: McpRequest, ctx: ServerContext, rounds: Rounds): Promise<ActionResult<unknown> | InputRequiredResult> {
    const { payload } = rounds;
    if (payload?.approved === true) return this.runRounds(tool, args, input, { ...options, approved: true }, request, ctx, rounds, true);
    if (request.clientCapabilities?.elicitation === undefined) return this.tools.unapproved(tool.name, NO_ELICITATION);
    const { inputRequired, inputResponse } = serverSdk();
    if (payload?.asked?.includes(APPROVAL_INPUT_KEY) !== true) {
      const question = inputRequired.elicit({ message: approvalPrompt(tool.name, input), requestedSchema: { type: 'object', properties: {} } });
      return inputRequired({ inputRequests: { [APPROVAL_INPUT_KEY]: question }, requestState: await this.approvals.mint(tool.name, args, ctx, { answers: payload?.answers, asked: [APPROVAL_INPUT_KEY] }) });
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT_KEY);
    if (answer.kind !== 'elicit' || answer.action !== 'accept') return this.tools.declined(tool.name);
    return this.runRounds(tool, args, input, { ...options, approved: true }, request, ctx, rounds, true);
  }

  /**
   * Runs the tool; when it asks a question no round answered yet (2026-07-28), the run is cut short (its signal
   * aborts, its waiting questions reject) and the call answers `input_required` with the round's questions and a
   * state carrying the answers so far (and the approval, when given).
   */
  private runRounds(tool: Tool, args: unknown, input: unknown, options: ExecuteOptions, request: McpRequest, ctx: ServerContext, rounds: Rounds, approved: boolean): Promise<ActionResult<unknown> | InputRequiredResult> {
    const { questions: asking } = rounds;
    if (asking === undefined) return this.run(tool.name, input, options, request, tool);
    return this.runAsking(tool, args, input, options, request, ctx, asking, approved);
  }

  private async runAsking(tool: Tool, args: unknown, input: unknown, options: ExecuteOptions, request: McpRequest, ctx: ServerContext, asking: InputRounds, approved: boolean): Promise<ActionResult<unknown> | InputRequiredResult> {
    const controller = new AbortController();
    const stop = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      const running = this.run(tool.name, input, { ...options, signal: controller.signal }, request, tool);
      const finished = await Promise.race([running.then((result) => ({ result })), asking.suspended.then(() => undefined)]);
      if (finished !== undefined) return finished.result;
      controller.abort(new Error('suspended for input_required'));
      asking.release();
      running.catch(() => undefined);
      const questions = asking.questions;
      const requestState = await this.approvals.mint(tool.name, args, ctx, { approved, answers: asking.answers, asked: Object.keys(questions) });
      return serverSdk().inputRequired({ inputRequests: questions, requestState });
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  private run(name: string, args: unknown, options: ExecuteOptions, request: McpRequest, tool: Tool): Promise<ActionResult<unknown>> {
    if (!this.progressEnabled || request.progressToken === undefined) return this.tools.execute(name, args, options);
    return this.runWithProgress(name, args, options, request, tool);
  }

  private async runWithProgress(name: string, args: unknown, options: ExecuteOptions, request: McpRequest, tool: Tool): Promise<ActionResult<unknown>> {
    await request.step(tool.formatStatus(args));
    const stream = this.tools.stream(name, args, options);
    for await (const chunk of stream) {
      if (chunk.state !== ToolResultState.RUNNING) continue;
      const text = chunk.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (text !== '') await request.step(text);
      const relayed = progressOf(chunk);
      if (relayed !== undefined) await request.step(relayed.message ?? (relayed.total === undefined ? String(relayed.progress) : `${relayed.progress}/${relayed.total}`));
    }
    return stream.result;
  }
}

/** The handler's answer: an `input_required` result as it is, a registry result as a `CallToolResult`. */
function toAnswer(result: ActionResult<unknown> | InputRequiredResult): CallToolResult | InputRequiredResult {
  return 'resultType' in result ? result : toCallToolResult(result);
}

/** Whether `ctx` is a 2026-07-28 request, whose envelope names its revision (no session; no server-to-client requests). */
function isStateless(ctx: ServerContext): boolean {
  return typeof (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[serverSdk().PROTOCOL_VERSION_META_KEY] === 'string';
}

/** The `registerTool` config of one listed tool: the registry's schemas carried as pass-through Standard Schemas. */
function toolConfig(entry: McpTool): never {
  return {
    ...(entry.title === undefined ? {} : { title: entry.title }),
    ...(entry.icons === undefined ? {} : { icons: entry.icons.map((icon) => ({ ...icon })) }),
    description: entry.description,
    inputSchema: passThrough(entry.inputSchema),
    ...(entry.outputSchema === undefined ? {} : { outputSchema: passThrough(entry.outputSchema) }),
    annotations: { ...entry.annotations },
    ...(entry._meta === undefined ? {} : { _meta: { ...entry._meta } }),
  } as never;
}

/**
 * A Standard Schema (with JSON Schema) that accepts every value unchanged and converts to `jsonSchema` exactly: the
 * SDK lists the registry's schema as written and leaves validation to the registry, whose failures are the model's
 * failed results rather than protocol errors.
 */
function passThrough(jsonSchema: object): StandardSchemaWithJSON {
  const json = () => ({ ...jsonSchema }) as Record<string, unknown>;
  return { '~standard': { version: 1, vendor: 'agenttoolkit', validate: (value: unknown) => ({ value }), jsonSchema: { input: json, output: json } } } as StandardSchemaWithJSON;
}
