/**
 * The host's answer to one call a paused run waits for, in the per-call form of `CodeModeResume.approved`: true
 * approves it; false declines it; `{ approved: false, reason }` declines it with a reason (at most
 * {@link MAX_DENIAL_REASON_CHARS} characters) that the program sees in the rejection; `{ approved: true }` approves it.
 */
export type CodeModeCallAnswer = boolean | { readonly approved: boolean; readonly reason?: string | undefined };

/** The longest denial reason a per-call answer may carry, in characters. */
export const MAX_DENIAL_REASON_CHARS = 2000;

/** What one waiting call gets on resume. */
export type ResumeDecision = { readonly approved: true } | { readonly approved: false; readonly reason?: string };

/** A call a ledger records as waiting: its place in the call order (1-based), its id as `start` reported it, its tool. */
export interface WaitingCall {
  readonly index: number;
  readonly id: string;
  readonly name: string;
}

/**
 * The decision for each waiting call (by its index) from `approved`: one boolean for all of them, or an object with
 * one answer per waiting call keyed by its id (own keys only). Anything else (a key that is not a waiting call's id, a
 * waiting call without an answer, an answer of another shape) is the text of the error, which says what to pass.
 */
export function resumeDecisions(approved: unknown, waiting: readonly WaitingCall[]): Map<number, ResumeDecision> | string {
  if (typeof approved === 'boolean') return new Map(waiting.map((call) => [call.index, { approved }] as const));
  try {
    return perCall(approved, waiting);
  } catch (error) {
    return `resume.approved could not be read (${String((error as Error | null)?.message ?? error)}): ${form(waiting)}.`;
  }
}

function form(waiting: readonly WaitingCall[]): string {
  return `pass true or false for all of them, or one answer per call keyed by its id: ${example(waiting)}`;
}

/** The per-call form; it may throw (a proxy or a getter of the host's object). */
function perCall(approved: unknown, waiting: readonly WaitingCall[]): Map<number, ResumeDecision> | string {
  if (approved === null || typeof approved !== 'object' || Array.isArray(approved)) return `resume.approved is ${describe(approved)}: ${form(waiting)}.`;
  const given = new Map(Object.keys(approved).map((key) => [key, (approved as Record<string, unknown>)[key]] as const));
  const ids = new Map(waiting.map((call) => [call.id, call] as const));
  const unknown = [...given.keys()].filter((key) => !ids.has(key));
  if (unknown.length > 0) {
    return `resume.approved answers ${unknown.map((key) => JSON.stringify(key)).join(', ')}, which this ledger does not wait for (an id of another run or another round is not one of its calls); it waits for ${list(waiting)}: ${form(waiting)}.`;
  }
  const missing = waiting.filter((call) => !given.has(call.id));
  if (missing.length > 0) return `resume.approved has no answer for ${list(missing)}: ${form(waiting)}.`;
  const decisions = new Map<number, ResumeDecision>();
  for (const call of waiting) {
    const decision = decisionOf(given.get(call.id));
    if (decision === undefined) {
      return `resume.approved[${JSON.stringify(call.id)}] is ${describe(given.get(call.id))}: answer true, false, or { approved: false, reason: '<why, at most ${MAX_DENIAL_REASON_CHARS} characters>' }.`;
    }
    decisions.set(call.index, decision);
  }
  return decisions;
}

function decisionOf(answer: unknown): ResumeDecision | undefined {
  if (typeof answer === 'boolean') return { approved: answer };
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  const keys = Object.keys(answer);
  if (!keys.every((key) => key === 'approved' || key === 'reason')) return undefined;
  const { approved, reason } = answer as { approved?: unknown; reason?: unknown };
  if (approved === true) return reason === undefined ? { approved } : undefined;
  if (approved !== false) return undefined;
  if (reason === undefined) return { approved };
  return typeof reason === 'string' && reason.length <= MAX_DENIAL_REASON_CHARS ? { approved, reason } : undefined;
}

function list(calls: readonly WaitingCall[]): string {
  return calls.map((call) => `${JSON.stringify(call.id)} (tools.${call.name})`).join(', ');
}

function example(waiting: readonly WaitingCall[]): string {
  return `{ ${waiting.map((call) => `${JSON.stringify(call.id)}: true`).join(', ')} }`;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object of another shape';
  return `a ${typeof value}`;
}
