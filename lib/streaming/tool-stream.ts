import type { ActionResult } from '../result';
import type { ToolChunk } from './tool-chunk';

/**
 * What `tools.stream(name, args)` returns: iterate it for the chunks as the tool produces them, and await `result`
 * for the final `ActionResult`, the same one `execute` would have returned. A call that fails before the tool runs
 * (unknown tool, invalid arguments, inactive group, a middleware answering itself) yields one chunk built from that
 * result. The last chunk has `isLast: true`: when the tool's own last chunk does not, an empty chunk in the final
 * state (`SUCCESS` or `ERROR`, from the result) follows it. Breaking out of the loop cancels the call (its signal
 * aborts). Iterable once.
 */
export interface ToolStream<R extends ActionResult<unknown> = ActionResult<unknown>> extends AsyncIterable<ToolChunk> {
  readonly result: Promise<R>;
}
