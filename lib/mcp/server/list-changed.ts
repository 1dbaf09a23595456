/** The members of an `McpServer` (either SDK line) that sending list changes uses. */
interface ListChangedServer {
  isConnected(): boolean;
  sendToolListChanged(): void;
}

/**
 * @internal Runs `register` with the server's `sendToolListChanged` silenced (the SDK's `registerTool` sends one per
 * tool it adds), restoring it afterwards. @returns whether anything asked to send it.
 */
export function withoutListChanged(server: ListChangedServer, register: () => void): boolean {
  const own = Object.getOwnPropertyDescriptor(server, 'sendToolListChanged');
  let asked = false;
  server.sendToolListChanged = () => void (asked = true);
  try {
    register();
  } finally {
    if (own === undefined) delete (server as Partial<ListChangedServer>).sendToolListChanged;
    else Object.defineProperty(server, 'sendToolListChanged', own);
  }
  return asked;
}

/**
 * @internal Sends one `notifications/tools/list_changed` for every listing change of the current tick, a microtask
 * later. A change while not connected sends nothing: the client lists the tools when it connects.
 */
export class ListChangedTick {
  private pending = false;

  constructor(private readonly server: ListChangedServer) {}

  /** Asks for one notification this tick. */
  request(): void {
    if (this.pending || !this.server.isConnected()) return;
    this.pending = true;
    void Promise.resolve().then(() => {
      this.pending = false;
      this.server.sendToolListChanged();
    });
  }
}
