import { cutText, toWellFormed } from '../text/cut-text';
import type { ResolvedBudget } from './output-budget';

/** What a cut left out, for the marker: where the cut starts, how many characters and line breaks it removed. */
export interface CutInfo {
  /** Length of the whole text, in UTF-16 code units. */
  readonly totalChars: number;
  /** Offset of the first character left out (the head's length). */
  readonly offset: number;
  /** How many UTF-16 code units were left out. */
  readonly cutChars: number;
  /** How many line breaks were left out. */
  readonly cutLines: number;
}

/** Writes the marker placed between the head and the tail. */
export type MarkerWriter = (cut: CutInfo) => string;

/** Whether `text` fits the budget's character and token limits. */
export function fitsBudget(text: string, budget: Pick<ResolvedBudget, 'maxChars' | 'maxTokens' | 'estimateTokens'>): boolean {
  if (budget.maxChars !== undefined && text.length > budget.maxChars) return false;
  return budget.maxTokens === undefined || budget.estimateTokens!(text) <= budget.maxTokens;
}

/**
 * `text` within the budget: unchanged (made well-formed) when it fits, else its head and its tail around the marker,
 * the head getting the extra code unit of an odd room. Never splits a surrogate pair. With `maxChars`, the result is
 * at most `maxChars` long, and exactly that long unless a surrogate pair sits at a cut; with `maxTokens`, the longest
 * such cut whose estimate fits is kept (binary search over its length, the estimator assumed to grow with the text).
 * When even the marker alone is over budget, the result is the text cut to the budget without a marker.
 */
export function cutOutput(text: string, budget: Pick<ResolvedBudget, 'maxChars' | 'maxTokens' | 'estimateTokens'>, marker: MarkerWriter): string {
  if (fitsBudget(text, budget)) return toWellFormed(text);
  const byChars = budget.maxChars === undefined ? text.length - 1 : budget.maxChars;
  const first = cutToLength(text, byChars, marker);
  if (budget.maxTokens === undefined || budget.estimateTokens!(first) <= budget.maxTokens) return first;
  const fits = (candidate: string) => budget.estimateTokens!(candidate) <= budget.maxTokens!;
  let low = 0;
  let high = Math.min(byChars, first.length);
  let best = cutText(text, 0, '');
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const candidate = cutToLength(text, mid, marker);
    if (fits(candidate)) {
      best = candidate;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

/** `text` cut to at most `max` code units as head + marker + tail (see {@link cutOutput}). */
export function cutToLength(text: string, max: number, marker: MarkerWriter): string {
  if (text.length <= max) return toWellFormed(text);
  let markerLength = marker({ totalChars: text.length, offset: text.length, cutChars: text.length, cutLines: countLines(text, 0, text.length) }).length;
  let best: string | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const room = max - markerLength;
    if (room < 2) break;
    const { head, tailStart } = split(text, room);
    const written = marker({ totalChars: text.length, offset: head, cutChars: tailStart - head, cutLines: countLines(text, head, tailStart) });
    const candidate = toWellFormed(text.slice(0, head)) + written + toWellFormed(text.slice(tailStart));
    if (candidate.length <= max && (best === undefined || candidate.length > best.length)) best = candidate;
    if (written.length === markerLength) break;
    markerLength = written.length;
  }
  return best ?? cutText(text, max, '');
}

/** Head length and tail start for `room` code units of kept text, moved off the middle of surrogate pairs. */
function split(text: string, room: number): { head: number; tailStart: number } {
  let head = Math.ceil(room / 2);
  let tailStart = text.length - (room - head);
  if (isHigh(text.charCodeAt(head - 1)) && isLow(text.charCodeAt(head))) head -= 1;
  if (isLow(text.charCodeAt(tailStart)) && isHigh(text.charCodeAt(tailStart - 1))) tailStart += 1;
  return { head, tailStart };
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Line breaks in `text` between `start` and `end`. */
export function countLines(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', start); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}
