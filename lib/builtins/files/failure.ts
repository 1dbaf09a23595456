import { AgentToolkitError } from '../../errors';
import { ActionResult } from '../../result';
import { cutText } from '../../text/cut-text';

/** Longest failure text a file tool hands the model. */
const MAX_FAILURE = 2000;

/** A failed result for the model, its text capped and well-formed. */
export function failed(message: string): ActionResult {
  return ActionResult.fail(cutText(message, MAX_FAILURE));
}

/** A failed result from an error a workspace (or anything below it) threw: its message, which says what to do. */
export function failedFrom(error: unknown, action: string): ActionResult {
  if (error instanceof AgentToolkitError) return failed(error.message);
  const message = error instanceof Error ? error.message : String(error);
  return failed(`Could not ${action}: ${message}`);
}
