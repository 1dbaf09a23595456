import type { ToolContext } from '../context/tool-context';

/** What a tool body receives besides its params: the call's context and its abort signal. */
export interface Invocation {
  readonly context: ToolContext;
  /** Aborted when the call times out or the caller cancels it. */
  readonly signal: AbortSignal;
}
