import type { ServerContext } from '@modelcontextprotocol/server';
import type { McpRequestPort } from '../mcp-request';
import type { InputRounds } from './input-rounds';
import type { McpSdk2ServerLike } from './mcp-server-v2-like';
import { serverSdk } from './sdk-v2';

/**
 * @internal The port of an SDK v2 `tools/call`: the handler's `ServerContext`. With `rounds` (given for a 2026-07-28
 * request) the tool's questions go to it (input requests of an `input_required` result); without, they are requests.
 * A class with getters, not a literal of closures: one is made per call, and most calls read none of it.
 */
export class Sdk2Port implements McpRequestPort {
  constructor(
    private readonly server: McpSdk2ServerLike,
    private readonly ctx: ServerContext,
    private readonly rounds: InputRounds | undefined,
  ) {}

  get sessionId(): string | undefined {
    return this.ctx.sessionId;
  }

  get authInfo(): McpRequestPort['authInfo'] {
    return this.ctx.http?.authInfo as McpRequestPort['authInfo'];
  }

  get requestId(): string | number {
    return this.ctx.mcpReq.id;
  }

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  get progressToken(): string | number | undefined {
    return this.ctx.mcpReq._meta?.progressToken;
  }

  /**
   * A 2026-07-28 request carries the client's revision and capabilities in its envelope; a session has them from
   * `initialize` (createMcpHandler backfills the server's accessors from the envelope, stdio does not).
   */
  get protocolVersion(): string | undefined {
    const version = this.envelope?.[serverSdk().PROTOCOL_VERSION_META_KEY];
    return typeof version === 'string' ? version : this.server.server.getNegotiatedProtocolVersion();
  }

  get closeSseStream(): (() => void) | undefined {
    return this.ctx.http?.closeSSE;
  }

  clientCapabilities(): ReturnType<McpRequestPort['clientCapabilities']> {
    return (this.envelope?.[serverSdk().CLIENT_CAPABILITIES_META_KEY] as ReturnType<McpRequestPort['clientCapabilities']>) ?? (this.server.server.getClientCapabilities() as ReturnType<McpRequestPort['clientCapabilities']>);
  }

  elicitInput(params: Parameters<McpRequestPort['elicitInput']>[0], key: string | undefined): ReturnType<McpRequestPort['elicitInput']> {
    if (this.rounds === undefined) return this.ctx.mcpReq.elicitInput(params as never) as never;
    const { inputRequired } = serverSdk();
    if (params.mode !== 'url') return this.rounds.ask(inputRequired.elicit(params as never), key);
    // 2026-07-28's URL elicitation has no elicitationId (the retry answers it)
    const { mode: _mode, elicitationId: _id, ...rest } = params;
    return this.rounds.ask(inputRequired.elicitUrl(rest), key);
  }

  createMessage(params: Parameters<McpRequestPort['createMessage']>[0], key: string | undefined): ReturnType<McpRequestPort['createMessage']> {
    if (this.rounds === undefined) return this.ctx.mcpReq.requestSampling(params as never) as never;
    return this.rounds.ask(serverSdk().inputRequired.createMessage(params as never), key);
  }

  listRoots(key: string | undefined): ReturnType<McpRequestPort['listRoots']> {
    if (this.rounds === undefined) return this.ctx.mcpReq.send({ method: 'roots/list' }) as never;
    return this.rounds.ask(serverSdk().inputRequired.listRoots(), key);
  }

  notify(notification: Parameters<McpRequestPort['notify']>[0]): Promise<void> {
    return this.ctx.mcpReq.notify(notification as never);
  }

  log(level: Parameters<McpRequestPort['log']>[0], data: unknown, logger: string | undefined): Promise<void> {
    return this.ctx.mcpReq.log(level, data, logger);
  }

  private get envelope(): Record<string, unknown> | undefined {
    return this.ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  }
}
