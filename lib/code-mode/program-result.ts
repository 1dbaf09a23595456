import { ActionResult } from '../result';
import type { ResolvedLimits } from './limits';
import type { ProgramOutcome } from './run-program';

/** The tool's result for a program's outcome: what it printed and returned, or why it stopped and what it printed. */
export function resultOf(outcome: ProgramOutcome, limits: ResolvedLimits): ActionResult<unknown> {
  const text = outcome.cut ? `${outcome.text}\n[output cut at ${limits.maxOutputChars} characters]` : outcome.text;
  if (outcome.ok) return ActionResult.success(text);
  const printed = text.length > 0 ? `\nOutput before it stopped:\n${text}` : '';
  return ActionResult.fail(`${stopText(outcome, limits)}${printed}`);
}

function stopText(outcome: Extract<ProgramOutcome, { ok: false }>, limits: ResolvedLimits): string {
  switch (outcome.reason) {
    case 'time':
      return `The program was stopped: it ran past its time limit of ${limits.timeoutMs} ms.`;
    case 'memory':
      return `The program was stopped: it ran out of memory (limit ${limits.memoryBytes} bytes).`;
    case 'calls':
      return `The program was stopped: it made more than ${limits.maxToolCalls} tool calls.`;
    case 'cancelled':
      return 'The program was cancelled.';
    case 'crashed':
      return `The interpreter failed: ${String(outcome.error)}.`;
    default:
      return `The program failed${outcome.line === undefined ? '' : ` at line ${outcome.line}`}: ${String(outcome.error)}`;
  }
}
