/**
 * The session table of `serveHttp` (both SDK lines): lookup by the `Mcp-Session-Id` header, the idle timer that runs
 * only while no exchange of a session is open, forgetting a session when its transport closes, and closing them all.
 */
import { EventEmitter } from 'node:events';
import { HttpSessions } from '../../../lib/mcp/server/http-sessions';

class FakeTransport {
  onclose: (() => void) | undefined;
  constructor(readonly sessionId: string | undefined) {}
}

class FakeServer {
  closed = 0;
  constructor(private readonly transport: FakeTransport, private readonly fails = false) {}
  close(): Promise<void> {
    this.closed++;
    this.transport.onclose?.();
    return this.fails ? Promise.reject(new Error('already closed')) : Promise.resolve();
  }
}

function open(sessions: HttpSessions<FakeTransport, FakeServer>, id: string, fails = false) {
  const transport = new FakeTransport(id);
  const server = new FakeServer(transport, fails);
  const session = sessions.create(transport, server);
  sessions.add(id, session);
  return { transport, server, session };
}

describe('HttpSessions', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('finds a session only by a single header value naming a listed session', () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(1000);
    const { session } = open(sessions, 'a');
    expect(sessions.of('a')).toBe(session);
    expect([sessions.of(undefined), sessions.of(['a']), sessions.of('b')]).toEqual([undefined, undefined, undefined]);
    expect(sessions.size).toBe(1);
  });

  it('closes a session idle for idleMs, counting from the end of its last open exchange, and forgets it', async () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(1000);
    const { server, session } = open(sessions, 'a');
    const first = new EventEmitter();
    const second = new EventEmitter();
    sessions.track(session, first);
    sessions.track(session, second);
    first.emit('close');
    jest.advanceTimersByTime(5000);
    expect(server.closed).toBe(0); // the second exchange (an SSE stream) is still open
    second.emit('close');
    jest.advanceTimersByTime(999);
    const third = new EventEmitter();
    sessions.track(session, third); // a new request before the timer fires clears it
    jest.advanceTimersByTime(5000);
    expect(server.closed).toBe(0);
    third.emit('close');
    jest.advanceTimersByTime(1000);
    expect(server.closed).toBe(1);
    expect(sessions.of('a')).toBeUndefined();
  });

  it('an idle close that fails is swallowed', async () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(10);
    const { server, session } = open(sessions, 'a', true);
    const exchange = new EventEmitter();
    sessions.track(session, exchange);
    exchange.emit('close');
    jest.advanceTimersByTime(10);
    await Promise.resolve();
    expect([server.closed, sessions.size]).toEqual([1, 0]);
  });

  it('with idleMs 0 never closes a session by itself', () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(0);
    const { server, session } = open(sessions, 'a');
    const exchange = new EventEmitter();
    sessions.track(session, exchange);
    exchange.emit('close');
    jest.advanceTimersByTime(60 * 60 * 1000);
    expect([server.closed, session.open, sessions.size]).toEqual([0, 0, 1]);
  });

  it("a closing transport forgets only its own session: not one listed since under its id, nor any without an id", () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(1000);
    const { transport } = open(sessions, 'a');
    const replacement = open(sessions, 'a').session;
    transport.onclose?.();
    expect(sessions.of('a')).toBe(replacement);
    const anonymous = new FakeTransport(undefined);
    sessions.create(anonymous, new FakeServer(anonymous));
    anonymous.onclose?.();
    expect(sessions.size).toBe(1);
  });

  it('closeAll closes every server and forgets every session, idle timers included', async () => {
    const sessions = new HttpSessions<FakeTransport, FakeServer>(1000);
    const a = open(sessions, 'a');
    const b = open(sessions, 'b');
    const exchange = new EventEmitter();
    sessions.track(a.session, exchange);
    exchange.emit('close');
    await sessions.closeAll();
    jest.advanceTimersByTime(5000);
    expect([a.server.closed, b.server.closed, sessions.size]).toEqual([1, 1, 0]);
  });
});
