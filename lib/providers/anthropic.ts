import type { ToolContext } from '../context/tool-context';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import type { Tools } from '../tools';
import { ANTHROPIC_STRICT_LIMITS, anthropicStrictSchema, strictExample, strictParameterCounts } from './anthropic-strict';
import type { ToolFormat } from '../tool/tool-format';
import type { ToolSession } from '../tool/tool-session';
import { objectParameters, type ObjectParameters } from './object-parameters';
import { ANTHROPIC_RULES, assertProviderRules } from './provider-rules';
import { withUniqueIds } from './call-ids';
import { allowedCallersOf, callableFromCode, type AllowedCallersOption, type AnthropicAllowedCaller, type AnthropicToolUseCaller } from './anthropic-callers';
import type { ToolCallRequest } from './tool-call-request';

/**
 * One entry of the Messages API `tools` array: `{"name", "description", "input_schema"}` (provider rule:
 * `input_schema` has `"type": "object"` and `properties`, even when empty). Assignable to the SDK's `Tool`.
 */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectParameters;
  /** Present in the strict format: `true`, or `false` for a tool that opted out with `strict: false`. */
  strict?: boolean;
  /** The tool's `examples` option, each checked against the params schema at registration. */
  input_examples?: Array<Record<string, unknown>>;
  /** Set on the last tool by {@link anthropicTools} with `cacheControl`. */
  cache_control?: AnthropicCacheControl;
  /** Who may call the tool (programmatic tool calling), set by {@link anthropicTools}: see `AllowedCallersOption`. */
  allowed_callers?: AnthropicAllowedCaller[];
}

/** A prompt-caching breakpoint (the SDK's `CacheControlEphemeral`). */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

function render(tool: Tool, description: string, strict: boolean): AnthropicTool {
  const entry: AnthropicTool =
    strict && tool.strict
      ? { name: tool.name, description, input_schema: anthropicStrictSchema(tool), strict: true }
      : { name: tool.name, description, input_schema: objectParameters(tool, 'Anthropic'), ...(strict ? { strict: false } : {}) };
  assertProviderRules(tool, description, entry.input_schema, ANTHROPIC_RULES);
  if (tool.extras.examples.length > 0) {
    entry.input_examples = tool.extras.examples.map((example) => (entry.strict === true ? strictExample(example, entry.input_schema) : { ...example }));
  }
  return entry;
}

/**
 * The Anthropic Messages tool format: the params schema as written (refs in `$defs`, `properties` always present, a
 * root `allOf` of objects merged; see `objectParameters`), and `input_examples` from the tool's `examples` option
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#providing-tool-use-examples). A
 * tool Anthropic cannot take is left out of the listing with a logged reason (refused at registration when the
 * registry declares this format): a union at the root of `input_schema`, a top-level field name outside
 * `^[a-zA-Z0-9_.-]{1,64}$` (https://github.com/anthropics/claude-code/issues/4668 quotes the API's error).
 */
export const anthropicFormat: ToolFormat<AnthropicTool> = {
  id: 'anthropic',
  render: (tool, description) => render(tool, description, false),
};

/**
 * The Anthropic Messages tool format with strict tool use (`strict: true`: the model's input is constrained to the
 * schema, https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/strict-tool-use): the strict-mode schema
 * without the constraints Anthropic's strict mode does not take (see `anthropicStrictSchema`). A tool that opted out
 * with `strict: false` is sent with `strict: false` and its schema as written; a recursive schema cannot be strict and
 * is left out of this listing (or refused at registration when the registry declares this format), and so is a tool
 * whose schema alone is over a per-request limit of {@link ANTHROPIC_STRICT_LIMITS}. The limits of a whole request
 * (strict tools, optional and union parameters summed over the tools) are applied by {@link anthropicTools}.
 */
export const anthropicStrictFormat: ToolFormat<AnthropicTool> = {
  id: 'anthropic-strict',
  render: (tool, description) => render(tool, description, true),
};

/** Options of {@link anthropicTools}. */
export interface AnthropicToolsOptions {
  /** Send strict tool use (`anthropicStrictFormat`). Default false. */
  strict?: boolean | undefined;
  /**
   * A prompt-caching breakpoint set on the last tool, so the whole tool list is cached
   * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). An undefined `ttl` is left out.
   */
  cacheControl?: { type: 'ephemeral'; ttl?: '5m' | '1h' | undefined } | undefined;
  /** The context to list tools for (default: the registry's active context). */
  context?: ToolContext | undefined;
  /** The conversation's session (a `ToolSearchSession`): it picks and orders the listed tools (see `tools.getSchema`). */
  session?: ToolSession | undefined;
  /**
   * Programmatic tool calling: the `allowed_callers` of each tool, a list for every tool without its own
   * `metadata.allowedCallers` (`ALLOWED_CALLERS`), or a function deciding per tool. Default: a tool's metadata, else
   * none (the API's default, `direct` only). A tool callable from code execution is sent non-strict.
   */
  allowedCallers?: AllowedCallersOption | undefined;
}

/**
 * The `tools` array of a Messages request: `tools.getSchema(anthropicFormat or anthropicStrictFormat, context)`,
 * with `cache_control` on the last entry when `cacheControl` is given and `allowed_callers` on each tool that has
 * callers (copies: cached entries are not changed).
 *
 * With `strict`, the request stays within Anthropic's per-request limits ({@link ANTHROPIC_STRICT_LIMITS}: 20 strict
 * tools, 24 optional and 16 union parameters across their schemas, https://platform.claude.com/docs/en/build-with-claude/structured-outputs):
 * tools are taken in listing order, and a strict tool that would take the request over a limit is sent non-strict
 * instead (`strict: false`, its schema as written; local validation still checks every call), with a warning on the
 * registry's logger naming the tool and the limit. The tool stays callable; only the constrained decoding is lost.
 * A tool whose `allowed_callers` name code execution is sent non-strict too, with a warning (programmatic tool
 * calling does not take strict tools).
 *
 * @throws CoreError `INVALID_OPTION` naming the tool when its callers (option or metadata) are malformed.
 */
export function anthropicTools(tools: Tools<ActionResult<unknown>>, options: AnthropicToolsOptions = {}): AnthropicTool[] {
  const callers = new Map<string, AnthropicAllowedCaller[]>();
  for (const tool of tools.getAvailable(options.context)) {
    const list = allowedCallersOf(tool, options.allowedCallers);
    if (list !== undefined) callers.set(tool.name, list);
  }
  const fromCode = (name: string) => callableFromCode(callers.get(name));
  const listed = options.strict === true ? withinStrictLimits(tools, options.context, options.session, fromCode) : tools.getSchema(anthropicFormat, options.context, options.session);
  const list = callers.size === 0 ? listed : listed.map((entry) => (callers.has(entry.name) ? { ...entry, allowed_callers: callers.get(entry.name)! } : entry));
  const last = list.length - 1;
  const cache = options.cacheControl;
  if (cache === undefined || last < 0) return list;
  const cacheControl: AnthropicCacheControl = cache.ttl === undefined ? { type: cache.type } : { type: cache.type, ttl: cache.ttl };
  return list.map((entry, index) => (index === last ? { ...entry, cache_control: cacheControl } : entry));
}

function withinStrictLimits(tools: Tools<ActionResult<unknown>>, context: ToolContext | undefined, session: ToolSession | undefined, fromCode: (name: string) => boolean): AnthropicTool[] {
  const strict = tools.getSchema(anthropicStrictFormat, context, session);
  if (!strict.some((entry) => entry.strict === true)) return strict;
  const plain = new Map(tools.getSchema(anthropicFormat, context, session).map((entry) => [entry.name, entry]));
  const used = { tools: 0, optional: 0, unions: 0 };
  return strict.flatMap((entry) => {
    if (entry.strict !== true) return [entry];
    const counts = strictParameterCounts(entry.input_schema);
    const code = fromCode(entry.name);
    const over = code
      ? undefined
      : used.tools + 1 > ANTHROPIC_STRICT_LIMITS.tools
        ? `${ANTHROPIC_STRICT_LIMITS.tools} strict tools`
        : used.optional + counts.optional > ANTHROPIC_STRICT_LIMITS.optionalParameters
          ? `${ANTHROPIC_STRICT_LIMITS.optionalParameters} optional parameters`
          : used.unions + counts.unions > ANTHROPIC_STRICT_LIMITS.unionParameters
            ? `${ANTHROPIC_STRICT_LIMITS.unionParameters} parameters with union types`
            : undefined;
    if (over === undefined && !code) {
      used.tools += 1;
      used.optional += counts.optional;
      used.unions += counts.unions;
      return [entry];
    }
    const fallback = plain.get(entry.name);
    const why = over === undefined ? 'programmatic tool calling (its allowed_callers name code execution) does not take strict tools' : `with it, the request would pass Anthropic's limit of ${over} across the strict tools of a request`;
    if (fallback === undefined) {
      tools.logger.warn(`Tool '${entry.name}' is left out of the anthropic-strict listing: ${why}, and it cannot be sent non-strict.`);
      return [];
    }
    tools.logger.warn(`Tool '${entry.name}' is sent without strict tool use: ${why}.`);
    return [{ ...fallback, strict: false }];
  });
}

/** The part of a Messages API response this module reads (the SDK's `Message` fits). */
export interface AnthropicMessage {
  /** `caller` (programmatic tool calling) is not read: a call from code execution is executed and answered like any other. */
  content: ReadonlyArray<{ type: string; id?: string; name?: string; input?: unknown; caller?: AnthropicToolUseCaller | null }>;
}

/**
 * The `tool_use` blocks of a response, as tool calls (`input` is already an object). A block with no id or an id an
 * earlier block has gets a made-up `id`, and `providerId` keeps Anthropic's, which the `tool_result` carries back.
 */
export function anthropicToolUses<M extends AnthropicMessage>(message: M): ToolCallRequest[] {
  // Read defensively: a malformed response (no content, null blocks, a block missing fields) never throws here; a
  // `tool_use` missing its name or input becomes a request that fails in `execute`, so it still gets a tool_result.
  const content = (message as Partial<AnthropicMessage> | null | undefined)?.content;
  const calls = (Array.isArray(content) ? content : []).flatMap((block: AnthropicMessage['content'][number] | null) =>
    block?.type === 'tool_use' ? [{ id: String(block.id ?? ''), name: String(block.name ?? ''), args: block.input }] : [],
  );
  return withUniqueIds(calls, 'anthropic');
}

export { anthropicToolResult, anthropicToolResultMessage, type AnthropicToolResult, type AnthropicToolResultContent } from './anthropic-result';
export { ANTHROPIC_STRICT_LIMITS, type StrictParameterCounts } from './anthropic-strict';
export { ALLOWED_CALLERS, type AllowedCallersOption, type AnthropicAllowedCaller, type AnthropicToolUseCaller } from './anthropic-callers';
