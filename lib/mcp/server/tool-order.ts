type Handler = (request: unknown, extra: unknown) => unknown;
interface SdkInternals {
  readonly server: { readonly _requestHandlers: Map<string, Handler> };
}
interface ToolListing {
  readonly tools?: ReadonlyArray<{ readonly name: string }>;
}
const SORTED = Symbol('agenttoolkit.toolsByName');

/** @internal Compares names by UTF-16 code units, as `Array.prototype.sort` does without a comparator. */
export function byCodeUnits(a: { readonly name: string }, b: { readonly name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * @internal Puts a sort by name ({@link byCodeUnits}) behind the SDK's `tools/list` handler of `server`, either SDK
 * line (once; a no-op until the SDK has installed it, at its first `registerTool`). The SDK lists its tools in the
 * order they were registered, and serving a registry removes and registers tools as its listing changes, so that
 * order is the server's history; sorted, the same tools list the same way on every server.
 *
 * The sorted listing is a copy of the SDK's with every other own property kept, among them the symbol-keyed cache
 * hint SDK v2 attaches from its `cacheHints` option (the `ttlMs`/`cacheScope` a 2026-07-28 listing carries).
 */
export function listToolsByName(server: object): void {
  const handlers = (server as SdkInternals).server._requestHandlers;
  const own = handlers.get('tools/list') as (Handler & { [SORTED]?: true }) | undefined;
  if (own === undefined || own[SORTED]) return;
  const sorted: Handler & { [SORTED]?: true } = async (request, extra) => {
    const listing = (await own(request, extra)) as ToolListing;
    return Array.isArray(listing.tools) ? { ...listing, tools: [...listing.tools].sort(byCodeUnits) } : listing;
  };
  sorted[SORTED] = true;
  handlers.set('tools/list', sorted);
}
