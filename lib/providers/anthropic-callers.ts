import { CoreError } from '../errors';
import type { Tool } from '../tool/tool';

/**
 * Who may call a tool in Anthropic's programmatic tool calling (the Messages API's `allowed_callers`): `direct` (the
 * model's own `tool_use`) or a version of the code execution tool, whose program then calls the tool from Anthropic's
 * container (https://platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling). The values of
 * `@anthropic-ai/sdk` 1.14; a later `code_execution_YYYYMMDD` also passes at run time.
 */
export type AnthropicAllowedCaller = 'direct' | 'code_execution_20250825' | 'code_execution_20260120' | 'code_execution_20260521';

/**
 * The `metadata` key a tool declares its Anthropic callers under: `metadata: { allowedCallers: ['code_execution_20260120'] }`
 * (a list of {@link AnthropicAllowedCaller}). `anthropicTools` sends it as the tool's `allowed_callers`.
 */
export const ALLOWED_CALLERS = 'allowedCallers';

/**
 * The `allowedCallers` option of `anthropicTools`: a list, sent for every tool that declares none in its metadata; or
 * a function of the tool that decides for each tool (its metadata is then read only by the function; `undefined`
 * sends no `allowed_callers`, which the API takes as `direct` only).
 */
export type AllowedCallersOption = readonly AnthropicAllowedCaller[] | ((tool: Tool) => readonly AnthropicAllowedCaller[] | undefined);

/** The `caller` of a `tool_use` block (the SDK's `ToolUseCaller`): `direct`, or the code execution call that made it. */
export interface AnthropicToolUseCaller {
  readonly type: string;
  /** The id of the `server_tool_use` block of the code execution run that made the call (not the `tool_use` id). */
  readonly tool_id?: string;
}

const CALLER = /^(direct|code_execution_\d{8})$/;

/**
 * The `allowed_callers` to send for `tool`, checked: from `option` (see {@link AllowedCallersOption}) and the tool's
 * `metadata[ALLOWED_CALLERS]`; `undefined` when neither names any.
 * @throws CoreError `INVALID_OPTION` naming the tool for a value that is not a non-empty list of distinct callers
 *   (`direct` or `code_execution_YYYYMMDD`).
 */
export function allowedCallersOf(tool: Tool, option: AllowedCallersOption | undefined): AnthropicAllowedCaller[] | undefined {
  const own = tool.metadata[ALLOWED_CALLERS];
  const [given, where] = typeof option === 'function' ? [option(tool), 'the allowedCallers option of anthropicTools'] : own !== undefined ? [own, `its metadata.${ALLOWED_CALLERS}`] : [option, 'the allowedCallers option of anthropicTools'];
  if (given === undefined) return undefined;
  const list: unknown = given;
  if (!Array.isArray(list) || list.length === 0 || list.some((caller) => typeof caller !== 'string' || !CALLER.test(caller)) || new Set(list).size !== list.length) {
    throw new CoreError(
      'INVALID_OPTION',
      `Tool '${tool.name}': ${where} must be a non-empty list of distinct Anthropic callers ('direct' or 'code_execution_YYYYMMDD', such as 'code_execution_20260120'), got ${JSON.stringify(list) ?? String(list)}.`,
    );
  }
  return [...(list as AnthropicAllowedCaller[])];
}

/** Whether a tool with these callers may be called from code execution (such a tool cannot be sent strict). */
export function callableFromCode(callers: readonly AnthropicAllowedCaller[] | undefined): boolean {
  return callers?.some((caller) => caller !== 'direct') === true;
}
