/**
 * Characters that can forge or hide a log line when a remote party's text is logged: C0 and C1 controls (line
 * breaks, ESC of ANSI/OSC terminal sequences, NUL, BEL), DEL, the Unicode line and paragraph separators, and the
 * bidirectional embedding, override and isolate controls (the "Trojan Source" characters, CVE-2021-42574).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_LOG = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as one log line that shows what it holds: each character of {@link UNSAFE_IN_LOG} (line breaks, terminal
 * escapes, bidirectional controls) is written as a `\uXXXX` escape, so text from a remote server can neither start a
 * forged log line nor drive the terminal that shows the log. Text without such characters is returned unchanged.
 *
 * @param text - any text, including a remote party's.
 * @returns the escaped text (longer by 5 characters per escaped one).
 */
export function oneLine(text: string): string {
  return text.replace(UNSAFE_IN_LOG, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
