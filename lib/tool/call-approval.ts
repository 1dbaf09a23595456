import { CoreError } from '../errors';
import { cutText } from '../text/cut-text';
import type { Tool } from './tool';

/**
 * What a user approved: exactly one tool call, bound to its identity. Plain data (strings only), so a host can store
 * it, send it to another process or sign it (sign {@link approvalKey}); it approves no other call:
 *
 * - `callId`: the call's id as the call extraction gave it (unique within one model response);
 * - `tool`: the tool's registered name;
 * - `input`: the call's canonical input: the params the tool would receive (validated, nulls of omitted optional
 *   fields removed, defaults applied, undeclared fields removed) as JSON text with every object's keys sorted, so
 *   `{"b":1,"a":2}`, the JSON text `{"a":2,"b":1}` and the same call relying on a default all give one text. For
 *   arguments that do not validate it is `"invalid:"` and the arguments' own canonical JSON (such a call runs nothing).
 *
 * Build it with {@link approvalOf}; `runToolCalls` hands it out on each call waiting for approval (`waiting[0].approval`).
 */
export interface CallApproval {
  readonly callId: string;
  readonly tool: string;
  readonly input: string;
}

/** A call as approvals see it: the shape of `BatchCall` and `ToolCallRequest`. */
export interface ApprovableCall {
  readonly id: string;
  readonly name: string;
  /** The arguments object, or the JSON text the provider sent. */
  readonly args: unknown;
}

/**
 * The approval that covers exactly `call` of `tool`: its id, the tool's name and its canonical input (see
 * {@link CallApproval}). Two calls get equal approvals only when id, tool and validated input are all equal.
 */
export function approvalOf(tool: Tool, call: ApprovableCall): CallApproval {
  return { callId: String(call.id), tool: tool.name, input: canonicalInput(tool, call.args) };
}

/**
 * One string for an approval (`JSON.stringify([callId, tool, input])`): equal for equal approvals, different for any
 * other; the text a signed approval token signs.
 */
export function approvalKey(approval: CallApproval): string {
  return JSON.stringify([approval.callId, approval.tool, approval.input]);
}

/**
 * Why `approval` does not cover the call whose own approval is `call` (what `approvalOf` gives for it), as a clause
 * that names each field that differs, with both values, and how to get the right one; undefined when it covers it.
 * `callIdGiven` is whether the caller passed the call's id (`ExecuteOptions.callId`): without it no approval can
 * match, and the clause says to pass it.
 */
export function approvalMismatch(approval: CallApproval, call: CallApproval, callIdGiven: boolean): string | undefined {
  if (!callIdGiven) {
    return `the approval is bound to call id ${shown(approval.callId)} but the call was passed no callId: pass callId (the id the model gave the call) beside approved`;
  }
  const differs: string[] = [];
  if (approval.callId !== call.callId) differs.push(`the call id (approved ${shown(approval.callId)}, this call ${shown(call.callId)})`);
  if (approval.tool !== call.tool) differs.push(`the tool (approved ${shown(approval.tool)}, this call ${shown(call.tool)})`);
  if (approval.input !== call.input) differs.push(`the input (approved ${shown(approval.input)}, this call ${shown(call.input)})`);
  if (differs.length === 0) return undefined;
  return `the approval passed is for another call: ${differs.join(', ')} differ${differs.length === 1 ? 's' : ''}; approve this call (approvalOf(tool, call) for exactly the call the user saw, or the approval runToolCalls hands out for it)`;
}

/** A field of an approval as quoted in {@link approvalMismatch}: JSON text, cut. */
function shown(value: string): string {
  return JSON.stringify(cutText(value, MAX_SHOWN));
}

/** Each field of an approval is quoted in at most this many characters (the input may be long). */
const MAX_SHOWN = 200;

/** The canonical input of a call (see {@link CallApproval}). */
export function canonicalInput(tool: Tool, args: unknown): string {
  const parsed = tool.parseArgs(args);
  if (parsed.ok) return canonicalJson(parsed.params) ?? `invalid:${String(args)}`;
  let raw = args;
  if (typeof args === 'string') {
    try {
      raw = JSON.parse(args) as unknown;
    } catch {
      return `invalid:${args}`;
    }
  }
  return `invalid:${canonicalJson(raw) ?? ''}`;
}

/**
 * JSON text of `value` with the keys of every object sorted (code-unit order), as `JSON.stringify` would write the
 * value otherwise (undefined fields left out, non-finite numbers as null). Undefined for a value JSON cannot hold (a
 * cycle, a bigint, a getter that throws).
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(sorted(value, new Set()));
  } catch {
    return undefined;
  }
}

function sorted(value: unknown, seen: Set<object>): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') value = (value as { toJSON: () => unknown }).toJSON();
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) throw new CoreError('INVALID_OPTION', 'A cycle cannot be written as JSON.');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sorted(item, seen) ?? null);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) Object.defineProperty(out, key, { value: sorted((value as Record<string, unknown>)[key], seen), enumerable: true });
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * The approvals of `approved` as keys, for matching calls. Id strings, the form `approved` took before approvals
 * were bound to the call, are refused: an id alone would also approve another call that reuses it.
 * @throws CoreError `INVALID_OPTION` for an entry that is not a {@link CallApproval}.
 */
export function approvalKeys(approved: Iterable<CallApproval> | undefined, where: string): Set<string> {
  const keys = new Set<string>();
  for (const entry of approved ?? []) keys.add(approvalKey(checkedApproval(entry, where)));
  return keys;
}

/**
 * `entry` when it is a {@link CallApproval}.
 * @throws CoreError `INVALID_OPTION` otherwise (an id string in particular), saying what to pass instead.
 */
export function checkedApproval(entry: unknown, where: string): CallApproval {
  if (isCallApproval(entry)) return entry;
  const shown = typeof entry === 'string' ? `the id string ${JSON.stringify(entry)}` : entry === null ? 'null' : `a ${typeof entry}`;
  throw new CoreError(
    'INVALID_OPTION',
    `${where} takes approvals ({ callId, tool, input }: the \`approval\` of a waiting call, or approvalOf(tool, call)), not ${shown}: an id alone would also approve another call that reuses the id.`,
  );
}

function isCallApproval(entry: unknown): entry is CallApproval {
  if (entry === null || typeof entry !== 'object') return false;
  const { callId, tool, input } = entry as Partial<CallApproval>;
  return typeof callId === 'string' && typeof tool === 'string' && typeof input === 'string';
}

/**
 * Refuses a batch in which two calls share an id: their results could not be told apart, and an approval given for
 * one would be asked for both.
 * @throws CoreError `DUPLICATE_CALL_ID` naming the id and the calls' positions.
 */
export function assertUniqueCallIds(calls: readonly ApprovableCall[], where: string): void {
  const first = new Map<string, number>();
  calls.forEach((call, index) => {
    const id = String(call.id);
    const earlier = first.get(id);
    if (earlier !== undefined) {
      throw new CoreError(
        'DUPLICATE_CALL_ID',
        `${where} got two calls with the id ${JSON.stringify(id)} (positions ${earlier} and ${index}): each call of a batch needs its own id. Extract the calls with the provider's parser (openAIChatToolCalls, anthropicToolUses, geminiFunctionCalls, ...), which gives every call a unique id, or give each call one yourself.`,
      );
    }
    first.set(id, index);
  });
}
