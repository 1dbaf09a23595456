import { isPlainObject } from '../schema/plain-copy';
import { toWellFormed } from '../text/cut-text';

/**
 * How `JSON.stringify` writes a lone UTF-16 surrogate: as a `\udXXX` escape (a paired one is written as is). Such an
 * escape is valid JSON text, but providers decode the request and refuse the unpaired surrogate (Anthropic: "no low
 * surrogate in string"). A literal backslash before `ud800` in the data also matches (`\\ud800`): that only costs an
 * unneeded repair.
 */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;

/**
 * `value` as structured data a provider accepts: when its JSON text (`text`, from `JSON.stringify(value)`) holds a
 * lone surrogate in a string or a key, a copy decoded from that text with every string and key made well-formed
 * (U+FFFD for each lone surrogate); else `value` itself, not copied.
 *
 * @param value - JSON data (a tool's result).
 * @param text - `JSON.stringify(value)`, which the caller has computed already.
 */
export function wellFormedJson(value: unknown, text: string): unknown {
  return LONE_SURROGATE_ESCAPE.test(text) ? repaired(text) : value;
}

/**
 * `text` (from `JSON.stringify`) with every lone surrogate escape in its strings and keys replaced by U+FFFD, so the
 * data a model decodes from it is well-formed too.
 */
export function wellFormedJsonText(text: string): string {
  return LONE_SURROGATE_ESCAPE.test(text) ? JSON.stringify(repaired(text)) : text;
}

function repaired(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) => {
    if (typeof item === 'string') return toWellFormed(item);
    if (!isPlainObject(item) || Object.keys(item).every((k) => k.isWellFormed())) return item;
    // Object.fromEntries defines own properties, so a `__proto__` key stays data.
    return Object.fromEntries(Object.entries(item).map(([k, v]) => [toWellFormed(k), v]));
  });
}
