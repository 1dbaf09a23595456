import type { InputRequest } from '@modelcontextprotocol/server';
import { McpServerError } from '../errors';

/** The error a question of a suspended round rejects with (the call answers `input_required` instead). */
const SUSPENDED = 'The call is suspended: the client answers its questions and retries the call (MCP 2026-07-28 input_required), which runs the tool again.';

/**
 * @internal The questions a tool asks through `McpRequest` during one 2026-07-28 `tools/call`, answered from the
 * earlier rounds (carried in the signed `requestState`) and from the retry's `inputResponses`.
 *
 * The tool runs again on every round. Its k-th question is keyed `input-k` unless the tool names it; a key answered in
 * an earlier round answers at once, and so does a key the retry answers when the previous round asked it (or, on a
 * first call without a state, any key the client sent). Any other question waits: after the event-loop turn of the
 * first one (so questions asked together, as with `Promise.all`, make one round), the round is {@link suspended},
 * the waiting questions reject and the call answers `input_required` with them.
 */
export class InputRounds {
  private count = 0;
  private readonly waiting = new Map<string, InputRequest>();
  private readonly rejects: Array<(error: Error) => void> = [];
  private suspend: (() => void) | undefined;
  /** Every answer known so far, by key (the earlier rounds' and this retry's). */
  readonly answers: Record<string, unknown>;
  /** Settles when a question is waiting and the turn that asked it is over. */
  readonly suspended: Promise<void>;

  /**
   * @param previous the answers of the earlier rounds, by key.
   * @param asked the keys the previous round asked, or undefined on a first call (no state).
   * @param responses the retry's `inputResponses`.
   * @param reserved keys a tool may not use (the approval question's).
   */
  constructor(
    previous: Record<string, unknown> | undefined,
    private readonly asked: readonly string[] | undefined,
    private readonly responses: Record<string, unknown> | undefined,
    private readonly reserved: readonly string[] = [],
  ) {
    this.answers = { ...previous };
    this.suspended = new Promise((resolve) => (this.suspend = resolve));
  }

  /** Asks `request` under `key` (default `input-k` for the k-th question). @returns the client's answer. */
  ask<T>(request: InputRequest, key: string | undefined): Promise<T> {
    this.count++;
    const name = key ?? `input-${this.count}`;
    if (this.reserved.includes(name)) return Promise.reject(new McpServerError('MCP_INPUT_KEY_TAKEN', `The key '${name}' is reserved for the approval question: give the question another key.`));
    if (Object.hasOwn(this.answers, name)) return Promise.resolve(this.answers[name] as T);
    const response = this.responses?.[name];
    if (response !== undefined && (this.asked === undefined || this.asked.includes(name))) {
      this.answers[name] = response;
      return Promise.resolve(response as T);
    }
    if (this.waiting.has(name)) return Promise.reject(new McpServerError('MCP_INPUT_KEY_TAKEN', `Two questions of one round use the key '${name}': give each its own key.`));
    this.waiting.set(name, request);
    if (this.waiting.size === 1) setImmediate(() => this.suspend?.());
    return new Promise<T>((_, reject) => this.rejects.push(reject));
  }

  /** The questions that wait, by key (the round's `inputRequests`). */
  get questions(): Record<string, InputRequest> {
    return Object.fromEntries(this.waiting);
  }

  /** Rejects the questions that wait, so the suspended run of the tool can unwind. */
  release(): void {
    for (const reject of this.rejects.splice(0)) reject(new McpServerError('MCP_INPUT_SUSPENDED', SUSPENDED));
  }
}
