import { AgentToolkitError } from '../../errors';
import { ActionResult } from '../../result';
import { cutText } from '../../text/cut-text';

/** Longest failure text a file tool hands the model. */
const MAX_FAILURE = 2000;

/** A failed result for the model, its text capped and well-formed. */
export function failed(message: string): ActionResult {
  return ActionResult.fail(cutText(message, MAX_FAILURE));
}

/**
 * A failed result from an error a workspace (or anything below it) threw. The workspace's own messages speak of
 * its API (`listDir`, `replaceAll`, `maxFileSize`); the common codes are reworded in the tools' terms, the others
 * (refused paths, a changed file) keep the workspace's message, which already says what to do.
 */
export function failedFrom(error: unknown, action: string, shown: string): ActionResult {
  if (!(error instanceof AgentToolkitError)) {
    return failed(`Could not ${action}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const detail = error as AgentToolkitError & { count?: number; size?: number; limit?: number };
  switch (error.code) {
    case 'NOT_FOUND': return failed(`'${shown}' does not exist. Check the path with Glob.`);
    case 'NOT_A_FILE': return failed(`'${shown}' is not a regular file (a directory or a special file).`);
    case 'NOT_TEXT': return failed(`'${shown}' is not UTF-8 text (it may be binary).`);
    case 'FILE_TOO_LARGE': return failed(`'${shown}' is ${detail.size} bytes, over the workspace limit of ${detail.limit} bytes.`);
    case 'TEXT_NOT_FOUND':
      return failed(`old_string was not found in '${shown}'. Read the file again and copy the text exactly, whitespace included, without the line number prefix.`);
    case 'AMBIGUOUS_MATCH':
      return failed(`old_string occurs ${detail.count} times in '${shown}'. Include more surrounding text to make it unique, or set replace_all to replace every occurrence.`);
    default: return failed(error.message);
  }
}
