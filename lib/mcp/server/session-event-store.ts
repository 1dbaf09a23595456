import { randomUUID } from 'node:crypto';
import { McpServerError } from './errors';

/** The `EventStore` of either SDK line, as a session's view of it needs it. */
export interface SharedEventStore<M = unknown> {
  storeEvent(streamId: string, message: M): Promise<string>;
  getStreamIdForEventId?(eventId: string): Promise<string | undefined>;
  replayEventsAfter(lastEventId: string, options: { send: (eventId: string, message: M) => Promise<void> }): Promise<string>;
}

/**
 * @internal One session's view of the `eventStore` an endpoint's sessions share. Both SDKs' transports name every
 * session's standalone `GET` stream `_GET_stream`, so through one shared store a client presenting its own event id
 * as `Last-Event-ID` was replayed what another session's server sent on that stream. Each view prefixes its stream
 * ids with a random prefix of its own, and an event id of another session's stream is unknown to it: the SDK
 * answers 400 (or, for a store that cannot tell an event's stream, the view throws `MCP_EVENT_FOREIGN`), and
 * nothing of that stream is sent.
 */
export function sessionEventStore<M>(store: SharedEventStore<M>): SharedEventStore<M> {
  const prefix = `${randomUUID()}:`;
  const own = (streamId: string | undefined): string | undefined => (streamId?.startsWith(prefix) === true ? streamId.slice(prefix.length) : undefined);
  return {
    storeEvent: (streamId, message) => store.storeEvent(prefix + streamId, message),
    ...(store.getStreamIdForEventId === undefined ? {} : { getStreamIdForEventId: async (eventId: string) => own(await store.getStreamIdForEventId!(eventId)) }),
    async replayEventsAfter(lastEventId, { send }) {
      const held: Array<[string, M]> = [];
      const streamId = own(await store.replayEventsAfter(lastEventId, { send: async (eventId, message) => void held.push([eventId, message]) }));
      if (streamId === undefined) throw new McpServerError('MCP_EVENT_FOREIGN', 'Last-Event-ID names an event of another session or none: nothing to replay.');
      for (const [eventId, message] of held) await send(eventId, message);
      return streamId;
    },
  };
}
