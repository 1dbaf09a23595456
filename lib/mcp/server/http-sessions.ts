/** The part of a Streamable HTTP server transport (either SDK line) the session table uses. */
export interface SessionTransport {
  readonly sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
}

/** One Streamable HTTP session: its transport and server, its open exchanges and its idle timer. */
export interface HttpSession<T extends SessionTransport, S extends { close(): Promise<void> }> {
  readonly transport: T;
  readonly server: S;
  /** Whom the session belongs to: the authenticated client that opened it (`''` on an endpoint without `auth`). */
  readonly principal: string;
  open: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * @internal The sessions of one `serveHttp` endpoint (SDK 1.x and SDK v2 alike), by session id. A session is
 * idle while no HTTP exchange of it is open (a request, or a response stream such as the standalone SSE `GET`);
 * after `idleMs` idle (`0`: never) its server is closed, which closes its transport, whose `onclose` forgets it, so
 * a client coming back with its id gets 404 and starts anew.
 */
export class HttpSessions<T extends SessionTransport, S extends { close(): Promise<void> }> {
  private readonly byId = new Map<string, HttpSession<T, S>>();

  private reserved = 0;

  constructor(private readonly idleMs: number) {}

  /** How many sessions are open. */
  get size(): number {
    return this.byId.size;
  }

  /** How many sessions are being opened: reserved, their `initialize` not yet answered. */
  get opening(): number {
    return this.reserved;
  }

  /**
   * Counts a session as being opened until the returned function is called (once), so concurrent `initialize` requests
   * cannot open more sessions than a cap allows while each awaits its server.
   */
  reserve(): () => void {
    this.reserved++;
    return () => void this.reserved--;
  }

  /** Whether `session` is listed (its transport answered `initialize` and it has not closed since). */
  lists(session: HttpSession<T, S>): boolean {
    return session.transport.sessionId !== undefined && this.byId.get(session.transport.sessionId) === session;
  }

  /** The session a request's `Mcp-Session-Id` header names, if it is open. */
  of(header: string | string[] | undefined): HttpSession<T, S> | undefined {
    return typeof header === 'string' ? this.byId.get(header) : undefined;
  }

  /**
   * A new session of `server` on `transport`, owned by `principal`, not yet listed: `add` lists it under the id the transport generates
   * (its `onsessioninitialized`). Takes over `transport.onclose`.
   */
  create(transport: T, server: S, principal = ''): HttpSession<T, S> {
    const session: HttpSession<T, S> = { transport, server, principal, open: 0, timer: undefined };
    transport.onclose = () => {
      clearTimeout(session.timer);
      if (transport.sessionId !== undefined && this.byId.get(transport.sessionId) === session) this.byId.delete(transport.sessionId);
    };
    return session;
  }

  /**
   * Lists `session` under `id`. A session whose exchanges all closed before it was listed (a client that sent
   * `initialize` and hung up) starts idle, so it expires like any other.
   */
  add(id: string, session: HttpSession<T, S>): void {
    this.byId.set(id, session);
    this.idleIfClosed(session);
  }

  /**
   * Counts an HTTP exchange of `session` as open until `response` closes (now, when it already has); the idle timer
   * runs while none is.
   */
  track(session: HttpSession<T, S>, response: { once(event: 'close', listener: () => void): unknown; readonly closed?: boolean }): void {
    if (this.idleMs === 0) return;
    session.open++;
    clearTimeout(session.timer);
    session.timer = undefined;
    const closed = (): void => {
      session.open--;
      this.idleIfClosed(session);
    };
    if (response.closed === true) closed();
    else response.once('close', closed);
  }

  /** Starts the idle timer of a listed session with no exchange open. */
  private idleIfClosed(session: HttpSession<T, S>): void {
    if (this.idleMs === 0 || session.open > 0 || session.timer !== undefined || !this.lists(session)) return;
    session.timer = setTimeout(() => this.closeIdle(session), this.idleMs).unref();
  }

  /** Closes every session's server and forgets them all. */
  async closeAll(): Promise<void> {
    const open = [...this.byId.values()];
    for (const session of open) clearTimeout(session.timer);
    await Promise.all(open.map(({ server }) => server.close()));
    this.byId.clear();
  }

  /** The idle timer fired (an exchange opening clears it, so none is open). */
  private closeIdle(session: HttpSession<T, S>): void {
    session.timer = undefined;
    session.server.close().catch(() => undefined); // closes the transport, whose onclose forgets the session
  }
}
