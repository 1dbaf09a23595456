import type { LoggingMessageNotification, Progress, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../../errors';
import type { ToolLogger } from '../../pipeline/logger';
import { linkedController } from '../../pipeline/await-call';
import type { ActionResult } from '../../result';
import { cutText } from '../../text/cut-text';
import { oneLine } from '../../text/one-line';
import type { Invocation } from '../../tool/tool';
import type { Tools } from '../../tools';
import { toolOutput, type McpCallResult } from './mcp-call-result';
import { McpClientError } from './mcp-client-error';
import { ProgressRelay } from './mcp-progress';
import type { McpClientOptions, McpToolDrift, McpToolsChange } from './mcp-client-options';
import { McpRemoteTool } from './mcp-remote-tool';
import { localToolName, SERVER_NAME, toolFingerprint } from './mcp-tool-naming';
import { dialectOf, type ClientDialect, type DialectRequestOptions, type McpSdkClient } from './client-dialect';
import { isMcpClientTelemetry, serverEndpoint, type McpClientTelemetry, type McpRequestOutcome, type McpRequestStart } from './mcp-telemetry';
/** A reason or server message quoted to the model or in a log line is cut to this many characters. */
const MAX_MESSAGE = 500;
/** A server's log message is cut to this many characters in the log line. */
const MAX_LOG = 2000;
/** A server's log data is in the details whole up to this many characters of JSON, else as its JSON cut to this. */
const MAX_LOG_DATA = 16_384;

interface Reconnect {
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly maxDelayMs: number;
}

/**
 * The tools of one MCP server, registered in a `Tools` registry and kept in step with the server. Each tool becomes
 * an {@link McpRemoteTool} named `mcp__<server>__<tool>` (see {@link McpClientOptions}), listed in every provider
 * format and executed through the registry's pipeline: local validation, middleware, the permission engine,
 * timeouts; aborting the call's signal cancels the MCP request (`notifications/cancelled`).
 *
 * Kept in step: a `notifications/tools/list_changed` from the server re-lists its tools (added ones registered,
 * removed ones unregistered); a lost connection to a server the adapter started or reached is re-established
 * (`reconnect`); and every tool's definition has a fingerprint, so a definition that changed after it was approved
 * is reported to `onDrift` and refused unless the host approves it (tool poisoning: a server swapping a tool's
 * description or schema after the user trusted it).
 *
 * @example
 * ```ts
 * const tools = new Tools({ middleware: [new PermissionMiddleware(engine, { ask })] });
 * const github = await McpClientTools.connect(tools, { name: 'github', command: 'github-mcp-server', args: ['stdio'] });
 * tools.getSchema(ToolSchemaFormat.ANTHROPIC); // ... mcp__github__create_issue, ...
 * await github.close();
 * ```
 */
export class McpClientTools {
  /** The server's name (the tools' `mcpName`). */
  readonly serverName: string;
  private readonly prefix: string;
  private readonly logger: ToolLogger;
  private readonly reconnectPolicy: Reconnect | undefined;
  private readonly approved = new Map<string, string>();
  private readonly registered = new Map<string, McpRemoteTool>();
  private readonly refusedDrifts = new Map<string, McpToolDrift>();
  private readonly dialect: ClientDialect;
  private readonly telemetry: McpClientTelemetry | undefined;
  private current: McpSdkClient | undefined;
  private freshListing = false;
  private connected = false;
  private closed = false;
  private reconnecting: Promise<void> | undefined;
  private refreshing: Promise<McpToolsChange> | undefined;
  private refreshAgain = false;

  private constructor(
    private readonly tools: Tools<ActionResult<unknown>>,
    private readonly options: McpClientOptions,
  ) {
    this.serverName = options.name;
    this.prefix = options.prefix ?? `mcp__${options.name}__`;
    this.logger = options.logger ?? tools.logger;
    this.dialect = dialectOf(options);
    const telemetry: unknown = options.telemetry === undefined ? tools.telemetry : options.telemetry;
    this.telemetry = isMcpClientTelemetry(telemetry) ? telemetry : undefined;
    const reconnect = options.reconnect;
    this.reconnectPolicy =
      reconnect === false || options.client !== undefined
        ? undefined
        : { maxAttempts: reconnect?.maxAttempts ?? 3, delayMs: reconnect?.delayMs ?? 250, maxDelayMs: reconnect?.maxDelayMs ?? 5000 };
    for (const [name, fingerprint] of Object.entries(options.approvedFingerprints ?? {})) this.approved.set(name, fingerprint);
  }

  /**
   * Connects to the server (starting it, for `command`), lists its tools and registers them in `tools`.
   *
   * @returns the connection; `close()` it when done (that unregisters its tools).
   * @throws McpClientError `MCP_CLIENT_OPTIONS` for unusable options, `MCP_CONNECT_FAILED` when the server cannot be
   *   reached, the handshake fails or the first listing fails (nothing is registered then).
   */
  static async connect(tools: Tools<ActionResult<unknown>>, options: McpClientOptions): Promise<McpClientTools> {
    checkOptions(options);
    const adapter = new McpClientTools(tools, options);
    try {
      await adapter.open();
      await adapter.refresh();
    } catch (error) {
      await adapter.close();
      throw error instanceof McpClientError ? error : new McpClientError('MCP_CONNECT_FAILED', `Could not connect to MCP server '${options.name}': ${messageOf(error)}`, { cause: error });
    }
    return adapter;
  }

  /**
   * The SDK `Client` in use (a new one after each reconnection), or undefined when closed: an SDK v2 `Client`
   * (`sdk: 2`, or a v2 `client` you passed) or an SDK 1.x one.
   */
  get client(): McpSdkClient | undefined {
    return this.current;
  }

  /**
   * The MCP revision negotiated with the server (`'2026-07-28'`, `'2025-11-25'`, ...), as the SDK tells it: always on
   * SDK v2, on SDK 1.x over Streamable HTTP. Undefined while not connected or when the SDK does not tell.
   */
  get protocolVersion(): string | undefined {
    return this.current === undefined ? undefined : negotiatedVersion(this.current);
  }

  /** Whether the connection is up (false while reconnecting and after `close()`). */
  get isConnected(): boolean {
    return this.connected;
  }

  /** The registered tools of this server, in the server's order. */
  get toolList(): McpRemoteTool[] {
    return [...this.registered.values()];
  }

  /** The registered names of this server's tools. */
  get toolNames(): string[] {
    return this.toolList.map((tool) => tool.name);
  }

  /** The approved fingerprint of each tool, by the server's tool names: persist it and pass it back as `approvedFingerprints`. */
  fingerprints(): Record<string, string> {
    return Object.fromEntries(this.approved);
  }

  /** The tools currently refused because their definition changed after approval. */
  refused(): McpToolDrift[] {
    return [...this.refusedDrifts.values()];
  }

  /**
   * Approves the current definition of a refused tool (by the server's name) and registers it.
   * @returns false when no tool of that name is refused, or when it could not be registered (logged and reported as
   *   skipped, as at a listing).
   */
  approve(remoteName: string): boolean {
    const drift = this.refusedDrifts.get(remoteName);
    if (drift === undefined) return false;
    this.refusedDrifts.delete(remoteName);
    this.approved.set(remoteName, drift.fingerprint);
    const skipped: Array<{ remoteName: string; reason: string }> = [];
    this.add(drift.current, drift.fingerprint, skipped);
    return skipped.length === 0;
  }

  /**
   * Lists the server's tools now and brings the registry in step (the adapter does it by itself on connection and on
   * `tools/list_changed`). Concurrent calls share one listing, and a call during a listing runs another after it.
   * @throws McpClientError `MCP_CLIENT_CLOSED` after `close()`; the SDK's error when the listing fails.
   */
  refresh(): Promise<McpToolsChange> {
    if (this.closed) return Promise.reject(new McpClientError('MCP_CLIENT_CLOSED', `The connection to MCP server '${this.serverName}' is closed.`));
    if (this.refreshing !== undefined) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    const run = async (): Promise<McpToolsChange> => {
      try {
        let change = await this.sync();
        while (this.refreshAgain && !this.closed) {
          this.refreshAgain = false;
          change = await this.sync();
        }
        return change;
      } finally {
        this.refreshing = undefined;
      }
    };
    return (this.refreshing = run());
  }

  /**
   * Closes the connection and re-opens it (then re-lists the tools), retrying as the `reconnect` option says.
   * @throws McpClientError `MCP_CLIENT_CLOSED` after `close()`, `MCP_CLIENT_OPTIONS` for a `client` you passed,
   *   `MCP_CONNECT_FAILED` when every attempt failed.
   */
  async reconnect(): Promise<void> {
    if (this.closed) throw new McpClientError('MCP_CLIENT_CLOSED', `The connection to MCP server '${this.serverName}' is closed.`);
    if (this.reconnectPolicy === undefined) {
      throw new McpClientError('MCP_CLIENT_OPTIONS', `MCP server '${this.serverName}': reconnection is off (a client you passed, or reconnect: false).`);
    }
    if (this.reconnecting === undefined) this.reconnecting = this.reconnectLoop(this.reconnectPolicy).finally(() => (this.reconnecting = undefined));
    return this.reconnecting;
  }

  /**
   * Unregisters this server's tools and closes the connection: a Streamable HTTP session is ended first (an HTTP
   * `DELETE`, as the MCP specification asks of a client that no longer needs it), a stdio server process is stopped.
   * A `client` you passed is left open. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.tools.unregister(...[...this.registered.values()].map((tool) => tool.name));
    this.registered.clear();
    const transport = this.options.client === undefined ? (this.current?.transport as { sessionId?: string; terminateSession?: () => Promise<void> } | undefined) : undefined;
    if (this.connected && transport?.sessionId !== undefined && transport.terminateSession !== undefined) {
      await transport.terminateSession().catch((error: unknown) => this.warn(`ending the HTTP session failed: ${messageOf(error)}`));
    }
    await this.dropClient();
  }

  private async open(): Promise<void> {
    const own = this.options.client === undefined;
    const client = (this.options.client as McpSdkClient | undefined) ?? this.dialect.create(this.options);
    if (own) {
      if (this.dialect.sdk === 2) this.options.setupSdk2Client?.(client as never);
      else this.options.setupClient?.(client as never);
      // On a failed handshake the SDK closes the transport itself (a started server process is stopped).
      await this.dialect.connect(client, this.options, this.requestOptions());
    }
    this.dialect.onToolsChanged(client, () => {
      this.freshListing = true;
      this.refresh().catch((error: unknown) => this.warn(`could not refresh its tools after tools/list_changed: ${messageOf(error)}`));
    });
    this.dialect.onLog(client, (params) => this.serverLog(params));
    const logLevel = this.options.logLevel;
    if (logLevel !== undefined && client.getServerCapabilities()?.logging !== undefined) {
      await this.traced(client, 'logging/setLevel', undefined, (meta) => this.dialect.setLogLevel(client, logLevel, this.requestOptions(), meta)).catch((error: unknown) => this.warn(`could not set its log level to '${logLevel}': ${messageOf(error)}`));
    }
    if (own) {
      client.onclose = () => {
        if (this.current !== client) return;
        this.connected = false;
        if (!this.closed && this.reconnectPolicy !== undefined) this.reconnect().catch(() => undefined);
      };
    }
    this.current = client;
    this.connected = true;
    await this.dialect.listenForChanges(client).catch((error: unknown) => this.warn(`could not listen for tool list changes: ${messageOf(error)}`));
  }

  private async dropClient(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    this.connected = false;
    if (client !== undefined && this.options.client === undefined) {
      try {
        await client.close();
      } catch (error) {
        this.warn(`closing the connection failed: ${messageOf(error)}`);
      }
    }
  }

  private async reconnectLoop(policy: Reconnect): Promise<void> {
    let last: unknown;
    for (let attempt = 0; attempt < policy.maxAttempts; attempt++) {
      if (attempt > 0) await sleep(Math.min(policy.delayMs * 2 ** (attempt - 1), policy.maxDelayMs));
      if (this.closed) return;
      try {
        await this.dropClient();
        await this.open();
        await this.refresh();
        return;
      } catch (error) {
        last = error;
        this.warn(`reconnection attempt ${attempt + 1} of ${policy.maxAttempts} failed: ${messageOf(error)}`);
      }
    }
    throw new McpClientError('MCP_CONNECT_FAILED', `Could not reconnect to MCP server '${this.serverName}' after ${policy.maxAttempts} attempts: ${messageOf(last)}`, { cause: last });
  }

  /** Every tool the server lists (all pages; after a change notification, not from the SDK's cache). */
  private listAll(client: McpSdkClient): Promise<McpToolDefinition[]> {
    const fresh = this.freshListing;
    this.freshListing = false;
    return this.traced(client, 'tools/list', undefined, (meta) => this.dialect.listAll(client, fresh, this.requestOptions(), meta));
  }

  private async sync(): Promise<McpToolsChange> {
    const client = this.current;
    if (client === undefined) throw new McpClientError('MCP_CLIENT_CLOSED', `The connection to MCP server '${this.serverName}' is closed.`);
    const listed = (await this.listAll(client)).filter((definition) => this.isWanted(definition.name));
    const change = { added: [] as string[], removed: [] as string[], changed: [] as string[], refused: [] as string[], skipped: [] as Array<{ remoteName: string; reason: string }> };
    if (this.closed) return change;
    const names = new Set(listed.map((definition) => definition.name));
    for (const [remoteName, tool] of [...this.registered]) {
      if (names.has(remoteName)) continue;
      this.tools.unregister(tool.name);
      this.registered.delete(remoteName);
      change.removed.push(tool.name);
    }
    for (const remoteName of [...this.refusedDrifts.keys()]) if (!names.has(remoteName)) this.refusedDrifts.delete(remoteName);
    for (const definition of listed) await this.syncTool(definition, change);
    if (change.added.length + change.removed.length + change.changed.length + change.refused.length + change.skipped.length > 0) this.options.onToolsChanged?.(change);
    return change;
  }

  private async syncTool(definition: McpToolDefinition, change: { added: string[]; changed: string[]; refused: string[]; skipped: Array<{ remoteName: string; reason: string }> }): Promise<void> {
    const remoteName = definition.name;
    const fingerprint = toolFingerprint(definition);
    const existing = this.registered.get(remoteName);
    if (existing !== undefined && existing.fingerprint === fingerprint) return;
    const approved = this.approved.get(remoteName);
    if (approved === undefined || approved === fingerprint) {
      this.approved.set(remoteName, fingerprint);
      this.refusedDrifts.delete(remoteName);
      const name = this.add(definition, fingerprint, change.skipped);
      if (name !== undefined) (existing === undefined ? change.added : change.changed).push(name);
      return;
    }
    const drift: McpToolDrift = {
      serverName: this.serverName,
      remoteName,
      toolName: localToolName(this.prefix, remoteName),
      approvedFingerprint: approved,
      fingerprint,
      previous: existing?.definition ?? this.refusedDrifts.get(remoteName)?.previous,
      current: Object.freeze(definition),
    };
    if (this.refusedDrifts.get(remoteName)?.fingerprint === fingerprint) return;
    let accepted = false;
    try {
      accepted = this.options.onDrift === undefined ? false : (await this.options.onDrift(drift)) === true;
    } catch (error) {
      this.warn(`its onDrift callback threw for tool '${remoteName}'; the new definition is refused: ${messageOf(error)}`);
    }
    if (accepted) {
      this.approved.set(remoteName, fingerprint);
      const name = this.add(definition, fingerprint, change.skipped);
      if (name !== undefined) change.changed.push(name);
      return;
    }
    if (existing !== undefined) {
      this.tools.unregister(existing.name);
      this.registered.delete(remoteName);
    }
    this.refusedDrifts.set(remoteName, drift);
    change.refused.push(drift.toolName);
    this.warn(`tool '${remoteName}' changed after it was approved (fingerprint ${approved.slice(0, 12)} -> ${fingerprint.slice(0, 12)}); it is refused until the host approves it.`);
  }

  /** Registers (or re-registers) one tool; a tool that cannot be registered is skipped and logged. */
  private add(definition: McpToolDefinition, fingerprint: string, skipped: Array<{ remoteName: string; reason: string }>): string | undefined {
    const remoteName = definition.name;
    const localName = localToolName(this.prefix, remoteName);
    const previous = this.registered.get(remoteName);
    try {
      const clash = [...this.registered.values()].find((tool) => tool.name === localName && tool.remoteName !== remoteName);
      if (clash !== undefined) throw new McpClientError('MCP_CLIENT_OPTIONS', `its name '${localName}' is already used by the server's tool '${clash.remoteName}'`);
      const tool = McpRemoteTool.from(definition, {
        serverName: this.serverName,
        localName,
        group: this.options.group ?? 'basic',
        trustReadOnlyHint: this.options.trustReadOnlyHint === true,
        fingerprint,
        call: (name, args, invocation) => this.call(name, localName, args, invocation),
      });
      if (previous !== undefined) this.tools.unregister(previous.name);
      this.registered.delete(remoteName);
      this.tools.register(tool);
      this.registered.set(remoteName, tool);
      return localName;
    } catch (error) {
      if (previous !== undefined && this.tools.get(previous.name) === undefined) this.registered.delete(remoteName);
      const reason = cutText(messageOf(error), MAX_MESSAGE);
      skipped.push({ remoteName, reason });
      this.warn(`tool '${remoteName}' is not registered: ${reason}`);
      return undefined;
    }
  }

  /**
   * One `tools/call`: the pipeline has validated `args` against the tool's schema. The server's progress
   * notifications for the call become content-less chunks the call streams (see {@link ProgressRelay}).
   */
  private call(remoteName: string, localName: string, args: Record<string, unknown>, invocation: Invocation): Promise<unknown> {
    // The SDK adds an abort listener to the signal of every request and never removes it: hand it a signal of this
    // call's own, so a long-lived caller signal (or the shared signal of calls made without one) gathers none.
    const { controller, unlink } = linkedController(invocation.signal);
    const tool = this.registered.get(remoteName);
    const relay = new ProgressRelay((value) => (tool === undefined ? value : tool.checkResult(value)));
    relay.settle(this.callOnce(remoteName, localName, args, controller.signal, relay.onprogress).finally(unlink));
    return relay.body;
  }

  private async callOnce(remoteName: string, localName: string, args: Record<string, unknown>, signal: AbortSignal, onprogress: (progress: Progress) => void): Promise<unknown> {
    const client = await this.ready(signal);
    const options = { signal, onprogress, ...this.requestOptions() };
    const result = await this.traced(client, 'tools/call', remoteName, (meta) => this.send(client, remoteName, args, options, meta), signal);
    return toolOutput(result as McpCallResult, this.serverName, localName);
  }

  /** The `tools/call` of {@link callOnce}, sent once more on a new connection when the first was not processed. */
  private async send(first: McpSdkClient, remoteName: string, args: Record<string, unknown>, options: DialectRequestOptions, meta: Readonly<Record<string, string>> | undefined): Promise<unknown> {
    const signal = options.signal!;
    const params = { name: remoteName, arguments: args, ...(meta === undefined ? {} : { _meta: { ...meta } }) };
    let client = first;
    let result;
    try {
      try {
        result = await this.dialect.callTool(client, params, options);
      } catch (error) {
        // Not processed by the server (a session it no longer knows, or a request never sent): once more, anew.
        const failure = this.dialect.failure(error, this.options);
        if (signal.aborted || (failure.kind !== 'session-gone' && failure.kind !== 'not-sent') || this.reconnectPolicy === undefined) throw error;
        this.warn(failure.kind === 'session-gone' ? 'the server no longer knows the session (HTTP 404); starting a new one' : `the call could not be sent (${messageOf(error)}); reconnecting to send it again`);
        this.lost(client, error);
        client = await this.ready(signal);
        result = await this.dialect.callTool(client, params, options);
      }
    } catch (error) {
      if (signal.aborted || error instanceof ToolError) throw error; // a ToolError: no connection to send it again on
      const failure = this.dialect.failure(error, this.options);
      if (failure.kind === 'remote') {
        const text = messageOf(error).replace(/^(?:MCP error -?\d+: )+/, '');
        throw new ToolError(`MCP server '${this.serverName}' could not run tool '${remoteName}': ${cutText(text, MAX_MESSAGE)} (JSON-RPC error ${failure.code}).`, { cause: error });
      }
      // An answer that is not a valid result says nothing against the connection: other calls on it go on.
      if (failure.kind === 'invalid') throw new ToolError(`MCP server '${this.serverName}' answered tool '${remoteName}' with an invalid result (${cutText(messageOf(error), MAX_MESSAGE)}). It may have run; check before retrying.`, { cause: error });
      this.lost(client, error);
      if (failure.kind === 'not-sent') throw new ToolError(`The call could not be sent to MCP server '${this.serverName}' (${cutText(messageOf(error), MAX_MESSAGE)}); it did not run, so it is safe to try again.`, { cause: error });
      throw new ToolError(`The connection to MCP server '${this.serverName}' was lost during the call (${cutText(messageOf(error), MAX_MESSAGE)}). It may or may not have run; check before retrying.`, { cause: error });
    }
    return result;
  }

  /**
   * Sends one request through `send`, as a traced request when a telemetry records it (`send` then gets the trace
   * context to put in `params._meta`). A telemetry that throws leaves the request untraced.
   */
  private traced<T>(client: McpSdkClient, method: string, toolName: string | undefined, send: (meta: Readonly<Record<string, string>> | undefined) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.telemetry === undefined) return send(undefined);
    let trace;
    try {
      trace = this.telemetry.startMcpRequest(this.requestStart(client, method, toolName));
    } catch {
      trace = undefined;
    }
    if (trace === undefined) return send(undefined);
    const end = (outcome: McpRequestOutcome): void => {
      try {
        trace.end(outcome);
      } catch {
        // Telemetry is best effort.
      }
    };
    return trace.run(() => send(trace.meta)).then(
      (result) => {
        end((result as { isError?: unknown } | undefined)?.isError === true ? { ok: false, errorType: 'tool_error' } : { ok: true });
        return result;
      },
      (error: unknown) => {
        end(this.outcomeOf(error, signal));
        throw error;
      },
    );
  }

  /** What a traced request's span records of a failed request. */
  private outcomeOf(error: unknown, signal: AbortSignal | undefined): McpRequestOutcome {
    const cause = error instanceof ToolError && error.cause !== undefined ? error.cause : error;
    if (signal?.aborted === true) return { ok: false, errorType: 'cancelled', message: messageOf(cause) };
    const failure = this.dialect.failure(cause, this.options);
    if (failure.kind === 'remote') return { ok: false, errorType: String(failure.code), code: failure.code, message: messageOf(cause) };
    return { ok: false, errorType: cause instanceof Error ? cause.name : '_OTHER', message: messageOf(cause) };
  }

  /** The facts of a request to this server as its span records them. */
  private requestStart(client: McpSdkClient, method: string, toolName: string | undefined): McpRequestStart {
    const sessionId = (client as { transport?: { sessionId?: unknown } }).transport?.sessionId;
    const server = this.options.url === undefined ? undefined : serverEndpoint(this.options.url);
    return {
      method,
      toolName,
      serverName: this.serverName,
      sessionId: typeof sessionId === 'string' && sessionId !== '' ? sessionId : undefined,
      protocolVersion: negotiatedVersion(client),
      transport: this.options.command !== undefined ? 'pipe' : server !== undefined ? 'tcp' : undefined,
      serverAddress: server?.address,
      serverPort: server?.port,
    };
  }

  /**
   * A log message of the server (`notifications/message`) to the logger: `debug`, `info` and `notice` to `debug` (left
   * out when the logger has none), `warning` to `warn`, `error` and above to `error`. The details carry the server's
   * level, its logger name and the data. What the server sent is its text, so it is made one line (line breaks,
   * terminal escapes and bidirectional controls escaped: see `oneLine`) and bounded: the message to
   * `MAX_LOG` characters, the logger name to 100, the data kept whole up to `MAX_LOG_DATA` characters of
   * JSON, else replaced by that JSON cut.
   */
  private serverLog(params: LoggingMessageNotification['params']): void {
    const { level, logger, data } = params;
    const text = typeof data === 'string' ? data : (jsonOrString(data));
    const name = typeof logger === 'string' ? cutText(oneLine(logger), 100) : undefined;
    const message = `MCP server '${this.serverName}'${name === undefined ? '' : ` (${name})`} [${level}]: ${cutText(oneLine(text), MAX_LOG)}`;
    const details = { mcpServer: this.serverName, level, ...(name === undefined ? {} : { logger: name }), data: text.length > MAX_LOG_DATA ? cutText(text, MAX_LOG_DATA) : data };
    try {
      if (level === 'warning') this.logger.warn(message, details);
      else if (level === 'debug' || level === 'info' || level === 'notice') this.logger.debug?.(message, details);
      else this.logger.error(message, details);
    } catch {
      // Logging is best effort.
    }
  }

  /** The connected client, waiting for a reconnection in progress (or starting one) when the connection is down. */
  private async ready(signal: AbortSignal): Promise<McpSdkClient> {
    if (!this.connected && !this.closed && this.reconnectPolicy !== undefined) {
      await Promise.race([this.reconnect().catch(() => undefined), abortOf(signal)]);
    }
    const client = this.current;
    if (!this.connected || client === undefined) {
      throw new ToolError(`MCP server '${this.serverName}' is not connected${this.closed ? '' : ' and could not be reconnected'}; try again later or use another tool.`);
    }
    return client;
  }

  /** A call failed below the protocol (a transport error): the connection is treated as lost and re-established. */
  private lost(client: McpSdkClient, error: unknown): void {
    if (this.current !== client || this.reconnectPolicy === undefined || this.closed) return;
    if (this.dialect.failure(error, this.options).kind !== 'session-gone') this.warn(`the connection failed: ${messageOf(error)}; reconnecting`);
    this.connected = false;
    this.reconnect().catch(() => undefined);
  }

  private isWanted(remoteName: string): boolean {
    const { allow, deny } = this.options;
    if (deny?.includes(remoteName)) return false;
    return allow === undefined || allow.includes(remoteName);
  }

  private requestOptions(): { timeout?: number; resetTimeoutOnProgress?: boolean } {
    return this.options.requestTimeoutMs === undefined ? {} : { timeout: this.options.requestTimeoutMs, resetTimeoutOnProgress: true };
  }

  private warn(message: string): void {
    try {
      // The message may quote the server (a tool name, an error text): kept to one line.
      this.logger.warn(`MCP server '${this.serverName}': ${oneLine(message)}`);
    } catch {
      // Logging is best effort.
    }
  }
}

/**
 * Connects to an MCP server and registers its tools in `tools`: the same as {@link McpClientTools.connect}.
 * @throws McpClientError as `McpClientTools.connect` does.
 */
export function connectMcpServer(tools: Tools<ActionResult<unknown>>, options: McpClientOptions): Promise<McpClientTools> {
  return McpClientTools.connect(tools, options);
}

function checkOptions(options: McpClientOptions): void {
  const fail = (message: string): never => {
    throw new McpClientError('MCP_CLIENT_OPTIONS', message);
  };
  if (typeof options?.name !== 'string' || !SERVER_NAME.test(options.name)) {
    fail(`MCP server name ${JSON.stringify(options?.name)} cannot be part of a tool name: use letters, digits and '-', in runs joined by single '_'.`);
  }
  const servers = [options.command, options.url, options.client].filter((server) => server !== undefined).length;
  if (servers !== 1) fail(`MCP server '${options.name}': give exactly one of command, url or client (got ${servers}).`);
  if (options.prefix !== undefined && !/^[A-Za-z0-9_-]{0,40}$/.test(options.prefix)) fail(`MCP server '${options.name}': the prefix must be at most 40 letters, digits, '_' or '-'.`);
  const reconnect = options.reconnect;
  if (reconnect !== undefined && reconnect !== false) {
    for (const key of ['maxAttempts', 'delayMs', 'maxDelayMs'] as const) {
      const value = reconnect[key];
      if (value !== undefined && !(Number.isInteger(value) && value >= (key === 'maxAttempts' ? 1 : 0))) fail(`MCP server '${options.name}': reconnect.${key} must be a whole number${key === 'maxAttempts' ? ' of at least 1' : ' of milliseconds'}.`);
    }
  }
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!;
}

function jsonOrString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

/** Resolves when `signal` aborts (never, if it does not). */
function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** The revision `client` negotiated: SDK v2's `getNegotiatedProtocolVersion()`, else SDK 1.x's HTTP transport's. */
function negotiatedVersion(client: McpSdkClient): string | undefined {
  const negotiated = (client as { getNegotiatedProtocolVersion?: () => unknown }).getNegotiatedProtocolVersion?.() ?? (client as { transport?: { protocolVersion?: unknown } }).transport?.protocolVersion;
  return typeof negotiated === 'string' ? negotiated : undefined;
}
