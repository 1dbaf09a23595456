import { ToolDefinitionError } from './tool-definition-error';

/** Renders a status line from a call's params. */
export type StatusRenderer = (params: Record<string, unknown>) => string;

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/**
 * Compiles a status template such as `"Refunding {amount} for order {orderId}..."` (a template
 * over parameter names; `{{` and `}}` are literal braces).
 *
 * @param where - the tool, named in the error.
 * @param knownParams - the parameter names of the tool's params schema.
 * @throws ToolDefinitionError when a placeholder names no parameter, or is empty.
 */
export function compileStatusTemplate(template: string, where: string, knownParams: readonly string[]): StatusRenderer {
  const parts: Array<string | { name: string }> = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index;
    parts.push(template.slice(last, index));
    last = index + match[0].length;
    if (match[0] === '{{') parts.push('{');
    else if (match[0] === '}}') parts.push('}');
    else {
      const name = (match[1] ?? '').trim();
      if (!knownParams.includes(name)) {
        throw new ToolDefinitionError(
          `${where}: the status template names {${name}}, which is not a parameter. ` +
            `Known parameters: ${knownParams.length ? knownParams.join(', ') : '(none)'}. Fix the placeholder or escape braces as {{ }}.`,
        );
      }
      parts.push({ name });
    }
  }
  parts.push(template.slice(last));
  return (params) => {
    let out = '';
    for (const part of parts) out += typeof part === 'string' ? part : String(params[part.name] ?? '');
    return out;
  };
}
