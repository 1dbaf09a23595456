/**
 * Length caps that never split a character. Every cap in the library goes through these two functions, so a cut
 * string is always well-formed: no lone UTF-16 surrogate (which providers refuse; Anthropic answers "no low surrogate
 * in string") and no partial UTF-8 sequence.
 */

/**
 * Replaces every lone UTF-16 surrogate in `text` with U+FFFD, so the string is well-formed Unicode and survives
 * `JSON.stringify` and every provider's JSON parser (ECMAScript `String.prototype.toWellFormed`).
 *
 * @param text - any string, including one a tool produced.
 * @returns `text` itself when it is already well-formed, else a repaired copy of the same length.
 */
export function toWellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/**
 * Cuts `text` to at most `max` UTF-16 code units including `marker`, at a code point boundary, and makes the result
 * well-formed. Text that fits is returned unchanged (but repaired if it held lone surrogates).
 *
 * @param text - the text to cap.
 * @param max - the most UTF-16 code units (JavaScript `length`) the result may have; below `marker.length`, the
 *   text is cut without a marker.
 * @param marker - appended when something was cut (default `...`).
 * @returns the capped, well-formed text.
 */
export function cutText(text: string, max: number, marker = '...'): string {
  if (text.length <= max) return toWellFormed(text);
  // A budget smaller than the marker keeps only text, so the result still fits.
  if (max < marker.length) return cutText(text, max, '');
  let end = Math.max(0, max - marker.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return toWellFormed(text.slice(0, end)) + marker;
}

/**
 * The largest byte count up to `maxBytes` at which `bytes` (UTF-8) can be cut without splitting a character: the
 * cut moves back over continuation bytes (`10xxxxxx`) to the start of the character that would be split.
 *
 * @param bytes - UTF-8 data.
 * @param maxBytes - the budget, in bytes.
 * @returns a length between `maxBytes - 3` and `maxBytes` (or `bytes.length` when it is smaller).
 */
export function utf8CutLength(bytes: Uint8Array, maxBytes: number): number {
  if (bytes.length <= maxBytes) return bytes.length;
  let end = Math.max(0, maxBytes);
  let back = 0;
  while (end > 0 && back < 3 && (bytes[end]! & 0xc0) === 0x80) {
    end -= 1;
    back += 1;
  }
  return end;
}

const BLANK = /\s/;

/**
 * `text` trimmed, without the full stops and blanks it ends with, so that it reads as a clause inside a sentence
 * (`failed (no such file)` rather than `failed (no such file.)`). Linear in the length of `text`: the regular
 * expression `/[.\s]+$/` takes quadratic time on a long run of dots that does not reach the end, and such text can
 * come from a model (a path echoed in an error message).
 */
export function asClause(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || BLANK.test(text[end - 1]!))) end -= 1;
  let start = 0;
  while (start < end && BLANK.test(text[start]!)) start += 1;
  return text.slice(start, end);
}
