import { randomUUID } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A bounded in-memory `EventStore` for {@link serveHttp}'s `eventStore` option: it keeps the last `maxEvents` messages
 * sent on each endpoint's SSE streams, so a client whose stream closed reconnects with `Last-Event-ID` and gets what
 * it missed (MCP specification 2025-11-25, "Resumability and Redelivery",
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery). One
 * process, no persistence: put a shared store (Redis, a database) behind the SDK's `EventStore` interface when
 * sessions must survive a restart or span servers.
 */
export class McpMemoryEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();

  /** @param maxEvents - the most events kept, oldest dropped first (default 1,000). */
  constructor(private readonly maxEvents = 1000) {}

  /** Stores a message of `streamId` and returns its event id (`<streamId>_<uuid>`). */
  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${randomUUID()}`;
    this.events.set(eventId, { streamId, message });
    while (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value!);
    return eventId;
  }

  /** The stream an event id belongs to, or undefined for an unknown (or dropped) id. */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  /**
   * Sends, in order, every stored event of the same stream after `lastEventId`.
   * @returns the stream id, or an empty string when the id is unknown (nothing is replayed).
   */
  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (streamId === undefined) return '';
    let after = false;
    for (const [eventId, event] of this.events) {
      if (after && event.streamId === streamId) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return streamId;
  }
}
