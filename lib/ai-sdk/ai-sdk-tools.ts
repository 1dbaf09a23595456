import { jsonSchema, type JSONSchema7, type ToolApprovalStatus, type Tool as AiTool, type ToolExecutionOptions } from 'ai';
import type { ToolContext } from '../context/tool-context';
import { objectParameters, type ObjectParameters } from '../providers/object-parameters';
import { hasBinary, resultParts, type ResultPart } from '../providers/result-parts';
import { failureText, resultText } from '../providers/result-text';
import type { ToolCallRequest } from '../providers/tool-call-request';
import { callNeedsApproval, selectionFilter, type ToolSelection } from '../providers/tool-selection';
import type { ActionResult } from '../result';
import { approvalKey, approvalOf } from '../tool/call-approval';
import { toStrictSchema } from '../schema/strict-schema';
import { ToolResponse } from '../streaming/tool-response';
import { ToolResultState } from '../streaming/tool-chunk';
import type { Tool } from '../tool/tool';
import type { ToolFormat } from '../tool/tool-format';
import type { Tools } from '../tools';
import { BatchGates, type BatchGate } from '../pipeline/batch-gate';
import { checkMaxConcurrency } from '../pipeline/limited-all';

/** One part of a binary result as the AI SDK's `content` tool output takes it: text, or a file with base64 data. */
export type AiSdkContentPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'file'; readonly mediaType: string; readonly data: string; readonly filename?: string };

/**
 * What a tool's `execute` hands the AI SDK as the call's output (`toolResults[i].output`, the UI message's tool part):
 * plain JSON, so a stored conversation can be sent again.
 *
 * - `{ ok: true, text }`: a successful result as the model reads it (a string as is, any other value as JSON);
 * - `{ ok: true, content }`: a successful result holding binary content (images, files) and text parts;
 * - `{ ok: false, error }`: a failed call (unknown tool, invalid arguments, the tool's own failure, a timeout, an
 *   aborted call), the error written for the model;
 * - `{ ok: true, preliminary: true, text }`: the text a streaming tool produced so far (a preliminary result, see
 *   https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#preliminary-tool-results); the last output is final.
 */
export type AiSdkToolOutput =
  | { readonly ok: true; readonly text: string; readonly preliminary?: true }
  | { readonly ok: true; readonly content: readonly AiSdkContentPart[] }
  | { readonly ok: false; readonly error: string };

/** An AI SDK tool made from a registered tool. */
export type AiSdkTool = AiTool<unknown, AiSdkToolOutput>;

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions extends ToolSelection {
  /**
   * Send the strict-mode schema (`toStrictSchema`) with the AI SDK's `strict: true`, for providers with constrained
   * decoding (OpenAI). A tool that opted out with `strict: false` is sent as written. Default false: the params schema
   * as written.
   */
  strict?: boolean | undefined;
  /**
   * Asked for each call that needs approval (`@RequiresApproval`, or the `requiresApproval` option, for these
   * arguments): true runs it, false, a rejection or a throw declines it (the SDK tells the model the call was
   * denied). Without it, such calls get the SDK's `user-approval` status: `generateText` stops with a
   * `tool-approval-request` part, and the call runs once the host sends back a `tool-approval-response`
   * (https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#tool-execution-approval).
   */
  approve?: ((tool: Tool, call: ToolCallRequest) => boolean | Promise<boolean>) | undefined;
  /**
   * The most calls of these tools that run at once within one step (the calls of one model response, which the SDK
   * starts together). Whatever it is, a call of a concurrency-unsafe tool (`isConcurrencySafe: false`, the default
   * for a tool with side effects) runs alone within its step, as `runToolCalls` runs it; calls of separate
   * `generateText` / `streamText` runs never wait for each other here (a tool's own `maxConcurrency` limits it
   * across them). Default: no limit. The SDK's own `toolCallConcurrency` applies as well.
   */
  maxConcurrency?: number | undefined;
}

/** What {@link aiSdkTools} returns: spread it into `generateText` / `streamText` (`{ ...aiSdkTools(registry) }`). */
export interface AiSdkToolSet {
  /** The tool set, keyed by tool name. */
  readonly tools: Record<string, AiSdkTool>;
  /** The call-level approval of AI SDK 7: answers for the tools of this set, `undefined` (not applicable) for others. */
  readonly toolApproval: (options: { readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown } }) => Promise<ToolApprovalStatus>;
}

interface Listed {
  readonly name: string;
  readonly description: string;
  readonly parameters: ObjectParameters;
  readonly strict: boolean;
}

function format(id: string, strict: boolean): ToolFormat<Listed> {
  return {
    id,
    render: (tool, description) =>
      strict && tool.strict
        ? { name: tool.name, description, parameters: toStrictSchema(tool.parameters, tool.source) as ObjectParameters, strict: true }
        : { name: tool.name, description, parameters: objectParameters(tool, 'the AI SDK'), strict: false },
  };
}

/** The AI SDK listing format: the params schema as written (see `objectParameters`). */
const AI_SDK_FORMAT = format('ai-sdk', false);
/** The AI SDK listing format with strict-mode schemas where the tool allows them. */
const AI_SDK_STRICT_FORMAT = format('ai-sdk-strict', true);

/**
 * A registry's tools (or the ones `names` / `groups` select, available in `context`) as an AI SDK 7 tool set with its
 * call-level approval, for `generateText`, `streamText` or an agent loop:
 *
 * ```ts
 * const result = await generateText({ model, prompt, ...aiSdkTools(tools), stopWhen: stepCountIs(5) });
 * ```
 *
 * - schema: the params schema through the SDK's `jsonSchema` (https://ai-sdk.dev/docs/reference/ai-sdk-core/json-schema),
 *   with a `validate` that accepts what the model sent as is: the registry validates every call itself (null
 *   stripping, defaults, the same messages as every provider), so the SDK never refuses a call by other rules; the
 *   tool's `examples` option as the SDK's `inputExamples`;
 * - `execute`: `tools.stream` with the SDK's `abortSignal` and the call id (validation, middleware, timeouts), as an
 *   async iterable: a streaming tool's text so far is a preliminary result, the last output is the final one. It
 *   never throws: every failure is an output with `ok: false`, which the model reads as an error text;
 * - `toModelOutput`: text as `text`, failures as `error-text`, binary results (images, PDFs, audio) as `content`
 *   with `file` parts;
 * - `toolApproval`: `not-applicable` for calls that need no approval, else `approve`'s answer, or `user-approval`.
 *   It is also the gate of `execute`: a call that needs approval runs only when this set's `toolApproval` let it
 *   through (`approved`, or `user-approval` that the SDK then had the user answer), so a host that passes `tools`
 *   without `toolApproval` gets an "approval required" failure for such calls instead of running them unconfirmed.
 *
 * Each call renders the listing anew (descriptions and availability follow the context at that moment).
 * @throws CoreError `INVALID_OPTION` when a name in `names` is not registered.
 */
export function aiSdkTools(tools: Tools<ActionResult<unknown>>, options: AiSdkToolsOptions = {}): AiSdkToolSet {
  const selected = selectionFilter(tools, options);
  const context = options.context;
  const gates = new BatchGates(checkMaxConcurrency(options.maxConcurrency, 'aiSdkTools({ maxConcurrency })'));
  const set: Record<string, AiSdkTool> = {};
  // The calls toolApproval let through, by approval key (id, tool, canonical input), with how many times: `execute`
  // runs a call that needs approval only when it is here, once, so an approval never runs another call or input.
  const cleared = new Map<string, number>();
  const keyOf = (tool: Tool, id: string, input: unknown) => approvalKey(approvalOf(tool, { id, name: tool.name, args: input }));
  const clear = (key: string) => cleared.set(key, (cleared.get(key) ?? 0) + 1);
  const takeCleared = (key: string): boolean => {
    const count = cleared.get(key) ?? 0;
    if (count > 1) cleared.set(key, count - 1);
    else cleared.delete(key);
    return count > 0;
  };
  /** `'needs-none'`, `'cleared'` (toolApproval let it through), or the refusal to yield. */
  const gate = (name: string, input: unknown, execution: ToolExecutionOptions<unknown>): 'needs-none' | 'cleared' | AiSdkToolOutput => {
    const tool = tools.get(name);
    if (tool === undefined || !callNeedsApproval(tool, input, context ?? tools.context)) return 'needs-none';
    if (takeCleared(keyOf(tool, execution.toolCallId, input))) return 'cleared';
    try {
      tools.logger.warn(`aiSdkTools: call '${execution.toolCallId}' of tool '${name}' needs approval but was not cleared by the set's toolApproval; pass both (\`...aiSdkTools(tools)\`) to generateText / streamText`);
    } catch {
      // Logging is best effort.
    }
    return { ok: false, error: failureText(tools.unapproved(name)) };
  };
  for (const entry of tools.getSchema(options.strict === true ? AI_SDK_STRICT_FORMAT : AI_SDK_FORMAT, context)) {
    const tool = tools.get(entry.name)!;
    if (!selected(tool)) continue;
    set[entry.name] = {
      description: entry.description,
      inputSchema: jsonSchema<unknown>(entry.parameters as JSONSchema7, { validate: (value) => ({ success: true, value }) }),
      ...(entry.strict ? { strict: true } : {}),
      ...(tool.extras.examples.length > 0 ? { inputExamples: tool.extras.examples.map((input) => ({ input: structuredClone(input) })) } : {}),
      // The step's messages are one array for all the calls of a step: the batch the rule applies within.
      execute: (input: unknown, execution: ToolExecutionOptions<unknown>) => run(tools, entry.name, input, execution, context, gate(entry.name, input, execution), gates.of(execution.messages)),
      toModelOutput: ({ output }: { output: AiSdkToolOutput }) => modelOutput(output),
    };
  }
  const toolApproval: AiSdkToolSet['toolApproval'] = async ({ toolCall }) => {
    const tool = Object.hasOwn(set, toolCall.toolName) ? tools.get(toolCall.toolName) : undefined;
    if (tool === undefined) return undefined;
    if (!callNeedsApproval(tool, toolCall.input, context ?? tools.context)) return 'not-applicable';
    const key = keyOf(tool, toolCall.toolCallId, toolCall.input);
    if (options.approve === undefined) {
      clear(key);
      return 'user-approval';
    }
    let approved = false;
    try {
      approved = (await options.approve(tool, { id: toolCall.toolCallId, name: toolCall.toolName, args: toolCall.input })) === true;
    } catch {
      approved = false;
    }
    if (approved) clear(key);
    return approved ? 'approved' : { type: 'denied', reason: failureText(tools.declined(tool.name)) };
  };
  return { tools: set, toolApproval };
}

/** Runs one call through the registry's pipeline, yielding the text so far while the tool streams, then the final output. */
async function* run(tools: Tools<ActionResult<unknown>>, name: string, input: unknown, execution: ToolExecutionOptions<unknown>, context: ToolContext | undefined,
  gate: 'needs-none' | 'cleared' | AiSdkToolOutput, batch: BatchGate): AsyncGenerator<AiSdkToolOutput, void, undefined> {
  if (typeof gate === 'object') {
    yield gate;
    return;
  }
  const release = await batch.acquire(tools.get(name)?.isConcurrencySafe !== true, execution.abortSignal);
  try {
    const stream = tools.stream(name, input, { signal: execution.abortSignal, callId: execution.toolCallId, context, approved: gate === 'cleared' });
    const sofar = new ToolResponse();
    for await (const chunk of stream) {
      if (chunk.state !== ToolResultState.RUNNING) continue;
      sofar.append(chunk);
      yield { ok: true, preliminary: true, text: sofar.text };
    }
    yield toOutput(await stream.result);
  } finally {
    release();
  }
}

/** A registry result as the output the SDK stores. */
export function toOutput(result: ActionResult<unknown>): AiSdkToolOutput {
  if (!result.ok) return { ok: false, error: failureText(result) };
  const parts = resultParts(result);
  if (!hasBinary(parts)) return { ok: true, text: resultText(result) };
  return { ok: true, content: parts.map(contentPart) };
}

function contentPart(part: ResultPart): AiSdkContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const content = part.content;
  return content.name === undefined ? { type: 'file', mediaType: content.essence, data: content.data } : { type: 'file', mediaType: content.essence, data: content.data, filename: content.name };
}

/** The SDK's `ToolResultOutput` for a stored output (https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#multi-modal-tool-results). */
function modelOutput(output: AiSdkToolOutput) {
  if (!output.ok) return { type: 'error-text' as const, value: output.error };
  if ('text' in output) return { type: 'text' as const, value: output.text };
  return {
    type: 'content' as const,
    value: output.content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'file' as const, mediaType: part.mediaType, data: { type: 'data' as const, data: part.data }, ...(part.filename === undefined ? {} : { filename: part.filename }) },
    ),
  };
}
