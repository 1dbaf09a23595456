import { AmbiguousMatchError, InvalidArgumentError, TextNotFoundError } from '../errors';

/**
 * The text side of `editFile`: counts non-overlapping occurrences of `oldText` from left to
 * right and replaces the first (or, with `replaceAll`, every) one. `newText` is inserted literally: `$&` and other
 * `String.prototype.replace` patterns mean nothing here.
 *
 * @returns the new content and the number of replacements made.
 * @throws InvalidArgumentError (`oldText` empty or not a string, `newText` not a string), TextNotFoundError (no
 * occurrence), AmbiguousMatchError (several occurrences without `replaceAll`).
 */
export function replaceText(content: string, oldText: unknown, newText: unknown, replaceAll: boolean,
  requested: string): { content: string; count: number } {
  checkEditArguments(oldText, newText, requested);
  const parts = content.split(oldText as string);
  const count = parts.length - 1;
  if (count === 0) throw new TextNotFoundError(requested);
  if (count > 1 && !replaceAll) throw new AmbiguousMatchError(requested, count);
  return { content: parts.join(newText as string), count };
}

/** Checks the texts of an edit before any file is touched. @throws InvalidArgumentError. */
export function checkEditArguments(oldText: unknown, newText: unknown, requested: string): void {
  if (typeof oldText !== 'string' || oldText === '') {
    throw new InvalidArgumentError(requested, `Cannot edit '${requested}': the text to replace must be a non-empty string.`);
  }
  if (typeof newText !== 'string') {
    throw new InvalidArgumentError(requested, `Cannot edit '${requested}': the replacement text must be a string, got ${typeof newText}.`);
  }
}
