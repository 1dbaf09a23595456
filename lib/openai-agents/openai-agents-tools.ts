import { tool as functionTool, type FunctionTool, type RunContext } from '@openai/agents-core';
import { openAIResponsesStrictFormat, openAIResponsesFormat } from '../providers/openai-responses';
import { hasBinary, resultParts, type ResultPart } from '../providers/result-parts';
import { resultText } from '../providers/result-text';
import { callNeedsApproval, selectionFilter, type ToolSelection } from '../providers/tool-selection';
import type { ActionResult } from '../result';
import type { Tools } from '../tools';
import { BatchGates } from '../pipeline/batch-gate';
import { checkMaxConcurrency } from '../pipeline/limited-all';

/** Options of {@link openAIAgentsTools}. */
export interface OpenAIAgentsToolsOptions extends ToolSelection {
  /**
   * Send strict-mode schemas (`toStrictSchema`, `strict: true`), as the Agents SDK does by default. A tool that opted
   * out with `strict: false` is sent as written with `strict: false`. Default true.
   */
  strict?: boolean | undefined;
  /**
   * The most calls of these tools that run at once within one run (the calls the SDK starts together for a turn).
   * Whatever it is, a call of a concurrency-unsafe tool (`isConcurrencySafe: false`, the default for a tool with side
   * effects) runs alone within the run, as `runToolCalls` runs it; calls of separate runs never wait for each other
   * here (a tool's own `maxConcurrency` limits it across runs). Default: no limit.
   */
  maxConcurrency?: number | undefined;
}

/** What a tool hands the Agents SDK as its output: the result's text, or text and images/files for binary results. */
export type OpenAIAgentsToolOutput = string | OpenAIAgentsOutputPart[];

/** One part of a binary result as the Agents SDK's tool output items take it (`ToolOutputText`, `ToolOutputImage`, `ToolOutputFileContent`). */
export type OpenAIAgentsOutputPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image: { data: string; mediaType: string } }
  | { type: 'file'; file: { data: string; mediaType: string; filename: string } };

/**
 * A registry's tools (or the ones `names` / `groups` select, available in `context`) as OpenAI Agents SDK function
 * tools (`@openai/agents` / `@openai/agents-core` 0.20), for `new Agent({ tools })`:
 *
 * ```ts
 * const agent = new Agent({ name: 'Assistant', instructions, tools: openAIAgentsTools(tools) });
 * ```
 *
 * - schema: the OpenAI strict schema of the registry (`ToolSchemaFormat.OPENAI_RESPONSES_STRICT`), handed to the
 *   model as is; the SDK only parses the JSON text, and the registry validates every call (null stripping for
 *   omitted optional fields, defaults, the same error messages as every provider);
 * - `needsApproval`: the tool's approval predicate (`@RequiresApproval`, the `requiresApproval` option) for the call's
 *   arguments: a call that needs it interrupts the run (`result.interruptions`) until the host approves or rejects it
 *   (https://openai.github.io/openai-agents-js/guides/human-in-the-loop/);
 * - `execute`: `tools.execute` with the run's abort signal and the call id (validation, middleware, timeouts). A
 *   failed call is the tool's output text, never an exception, so the model reads it and the run goes on; a binary
 *   result (image, file) is a list of output items. A call that needs approval runs only when the run approved it
 *   (`runContext.isToolApproved` for its tool and call id, as after `state.approve(interruption)`): a tool invoked
 *   outside that path (`tool.invoke(...)` by hand, a run context that never approved the call) answers
 *   `tools.unapproved(name)` and runs nothing.
 *
 * Each call renders the listing anew (descriptions and availability follow the context at that moment).
 * @throws CoreError `INVALID_OPTION` when a name in `names` is not registered.
 */
export function openAIAgentsTools(tools: Tools<ActionResult<unknown>>, options: OpenAIAgentsToolsOptions = {}): Array<FunctionTool<unknown, never, OpenAIAgentsToolOutput>> {
  const selected = selectionFilter(tools, options);
  const context = options.context;
  const gates = new BatchGates(checkMaxConcurrency(options.maxConcurrency, 'openAIAgentsTools({ maxConcurrency })'));
  const listing = tools.getSchema(options.strict === false ? openAIResponsesFormat : openAIResponsesStrictFormat, context);
  return listing
    .filter((entry) => selected(tools.get(entry.name)!))
    .map((entry) => {
      const tool = tools.get(entry.name)!;
      const made = functionTool({
        name: entry.name,
        description: entry.description,
        // Declared non-strict to the SDK so it keeps the schema and the JSON arguments as they are (its own strict
        // preparation would rewrite both); the entry's own `strict` flag is what the model gets, set below.
        parameters: entry.parameters as never,
        strict: false,
        // A tool that never asks is a static `false`: the SDK then runs a call whose arguments it cannot parse (the
        // registry answers it with a failed result) instead of holding it for approval as it does for a predicate.
        needsApproval: tool.requiresApproval ? async (_run: RunContext, input: unknown) => callNeedsApproval(tool, input, context ?? tools.context) : false,
        execute: async (input: unknown, run?: RunContext, details?: { signal?: AbortSignal | undefined; toolCall?: { callId?: string } | undefined }) => {
          const callId = details?.toolCall?.callId;
          const gated = tool.requiresApproval && callNeedsApproval(tool, input, context ?? tools.context);
          if (gated && !approvedByRun(run, entry.name, callId)) return toOutput(tools.unapproved(entry.name));
          const result = await gates.of(run).run(!tool.isConcurrencySafe, () => tools.execute(entry.name, input, { signal: details?.signal, callId, context, approved: gated }), details?.signal);
          return toOutput(result);
        },
        errorFunction: null,
      });
      return { ...made, strict: entry.strict } as unknown as FunctionTool<unknown, never, OpenAIAgentsToolOutput>;
    });
}

/** Whether the run's context holds the approval of this call (`state.approve(interruption)`); a context that cannot say, none. */
function approvedByRun(run: RunContext | undefined, toolName: string, callId: string | undefined): boolean {
  if (callId === undefined || typeof run?.isToolApproved !== 'function') return false;
  try {
    return run.isToolApproved({ toolName, callId }) === true;
  } catch {
    return false;
  }
}

/** A registry result as the tool's output: its text, or output items when it holds binary content. */
export function toOutput(result: ActionResult<unknown>): OpenAIAgentsToolOutput {
  const parts = resultParts(result);
  return hasBinary(parts) ? parts.map(outputPart) : resultText(result);
}

function outputPart(part: ResultPart): OpenAIAgentsOutputPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const content = part.content;
  const mediaType = content.essence;
  if (mediaType.startsWith('image/')) return { type: 'image', image: { data: content.data, mediaType } };
  return { type: 'file', file: { data: content.data, mediaType, filename: content.name ?? 'attachment' } };
}
