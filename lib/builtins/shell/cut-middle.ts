import { cutText, toWellFormed } from '../../text/cut-text';

/**
 * `text` cut to at most `max` UTF-16 code units keeping its head and its tail, with a marker between them that says
 * how long the whole text was. Never splits a surrogate pair; the result is well-formed.
 */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return toWellFormed(text);
  const marker = `\n\n[... output cut: ${text.length} characters in all, the middle was dropped ...]\n\n`;
  if (max < marker.length * 2) return cutText(text, max);
  const room = max - marker.length;
  const headLength = Math.ceil(room / 2);
  const head = cutText(text, headLength, '');
  let start = text.length - (room - headLength);
  const first = text.charCodeAt(start);
  if (start < text.length && first >= 0xdc00 && first <= 0xdfff) start += 1;
  return head + marker + toWellFormed(text.slice(start));
}
