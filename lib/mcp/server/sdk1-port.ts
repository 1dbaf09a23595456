import type { McpSdk1ServerLike } from './mcp-server-like';
import { isBelowLevel, type McpLogLevels, type McpRequestExtra, type McpRequestPort } from './mcp-request';

/**
 * @internal The port of a 1.x `tools/call`: the `McpServer` and the handler's `extra`. A class with getters, not a
 * literal of closures: one is made per call, and most calls read none of it.
 */
export class Sdk1Port implements McpRequestPort {
  constructor(
    private readonly server: McpSdk1ServerLike,
    private readonly extra: McpRequestExtra,
    private readonly levels: McpLogLevels,
  ) {}

  get sessionId(): string | undefined {
    return this.extra.sessionId;
  }

  get authInfo(): McpRequestPort['authInfo'] {
    return this.extra.authInfo;
  }

  get requestId(): string | number {
    return this.extra.requestId;
  }

  get signal(): AbortSignal {
    return this.extra.signal;
  }

  get progressToken(): string | number | undefined {
    return this.extra._meta?.progressToken;
  }

  /** SDK 1.x does not tell a handler the negotiated revision. */
  get protocolVersion(): undefined {
    return undefined;
  }

  get closeSseStream(): (() => void) | undefined {
    return this.extra.closeSSEStream;
  }

  clientCapabilities(): ReturnType<McpRequestPort['clientCapabilities']> {
    return this.server.server.getClientCapabilities();
  }

  elicitInput(params: Parameters<McpRequestPort['elicitInput']>[0]): ReturnType<McpRequestPort['elicitInput']> {
    return this.server.server.elicitInput(params, { relatedRequestId: this.extra.requestId, signal: this.extra.signal });
  }

  createMessage(params: Parameters<McpRequestPort['createMessage']>[0]): ReturnType<McpRequestPort['createMessage']> {
    return this.server.server.createMessage(params, { relatedRequestId: this.extra.requestId, signal: this.extra.signal }) as ReturnType<McpRequestPort['createMessage']>;
  }

  listRoots(): ReturnType<McpRequestPort['listRoots']> {
    return this.server.server.listRoots(undefined, { relatedRequestId: this.extra.requestId, signal: this.extra.signal });
  }

  notify(notification: Parameters<McpRequestPort['notify']>[0]): Promise<void> {
    return this.extra.sendNotification(notification as never);
  }

  async log(level: Parameters<McpRequestPort['log']>[0], data: unknown, logger: string | undefined): Promise<void> {
    if (isBelowLevel(this.levels, level, this.extra.sessionId)) return;
    await this.extra.sendNotification({ method: 'notifications/message', params: logger === undefined ? { level, data } : { level, data, logger } });
  }
}
