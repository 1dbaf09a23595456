import { cutText } from '../../text/cut-text';

/** The most UTF-16 code units of one argument's JSON shown in an approval question before it is cut. */
export const MAX_SHOWN_FIELD = 200;

/** The most UTF-16 code units of one argument's name shown in an approval question. */
const MAX_SHOWN_KEY = 80;

/**
 * The question that asks the user to approve one call: the tool's name, the size of the call's arguments (characters
 * of their JSON) and then every top-level argument on its own line, each value's JSON cut on its own at
 * {@link MAX_SHOWN_FIELD} with a marker saying how much was left out. No argument is hidden by another: a long first
 * field cannot push the recipient or the amount of a transfer out of view, as one cut of the whole JSON did.
 * Arguments that are not an object (an array, a scalar) are shown as one value, cut the same way.
 */
export function approvalPrompt(toolName: string, args: unknown): string {
  const value = args ?? {};
  const json = JSON.stringify(value) ?? 'null';
  const head = `Allow tool '${toolName}' to run? Its arguments (${json.length} characters of JSON):`;
  if (typeof value !== 'object' || Array.isArray(value)) return `${head}\n${shown(json)}`;
  const lines = Object.entries(value as Record<string, unknown>).map(([key, value]) => `- ${cutText(JSON.stringify(key), MAX_SHOWN_KEY)}: ${shown(JSON.stringify(value) ?? 'undefined')}`);
  return lines.length === 0 ? `${head}\n(none)` : `${head}\n${lines.join('\n')}`;
}

function shown(json: string): string {
  if (json.length <= MAX_SHOWN_FIELD) return json;
  const kept = cutText(json, MAX_SHOWN_FIELD, '');
  return `${kept}... [cut: ${json.length - kept.length} more characters]`;
}
