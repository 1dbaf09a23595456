/**
 * A failed result never reaches a provider with blank text: Anthropic answers a `tool_result` with empty content and
 * `is_error: true` with HTTP 400, and the other providers would show the model nothing. Each path that builds a
 * failure, times each provider's result builder.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { Type } from '@sinclair/typebox';
import {
  ActionResult,
  BLANK_FAILURE_TEXT,
  executeToolCall,
  ExternalExecutionRequest,
  ToolBase,
  ToolChunk,
  ToolResultState,
  Tools,
  type ToolMiddleware,
} from '../../lib';
import { anthropicToolResult } from '../../lib/providers/anthropic';
import { geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage, openAIResponsesToolOutput } from '../../lib/providers/openai';
import { PermissionDecision } from '../../lib/permissions';

const BLANKS = ['', ' ', '   ', '\n', '\t \r\n', '\u00a0', '\u2003\u3000'];
const quiet = () => ({ warn: jest.fn(), error: jest.fn(), debug: jest.fn(), info: jest.fn() });

/** Every provider's text for a failed result: each must be non-blank (and OpenAI's more than its `Error:` prefix). */
function providerTexts(result: ActionResult<unknown>): Record<string, string> {
  const anthropic = anthropicToolResult('toolu_1', result) satisfies Anthropic.ToolResultBlockParam;
  const chat = openAIChatToolMessage('c1', result) satisfies ChatCompletionToolMessageParam;
  const responses = openAIResponsesToolOutput('r1', result) satisfies ResponseInputItem.FunctionCallOutput;
  const mcp = mcpToolResult(result) satisfies CallToolResult;
  const gemini = geminiFunctionResponse({ id: 'g1', name: 't', args: {} }, result);
  expect(anthropic.is_error).toBe(true);
  expect(mcp.isError).toBe(true);
  expect(typeof anthropic.content).toBe('string');
  return {
    anthropic: anthropic.content as string,
    chat: chat.content.replace(/^Error: /, ''),
    responses: (responses.output as string).replace(/^Error: /, ''),
    mcp: (mcp.content[0] as { text: string }).text,
    gemini: String(gemini.functionResponse.response.error),
  };
}

function expectNonBlankEverywhere(result: ActionResult<unknown>, expected?: string | RegExp): void {
  expect(result.ok).toBe(false);
  expect(result.error!.trim()).not.toBe('');
  for (const [provider, text] of Object.entries(providerTexts(result))) {
    expect({ provider, blank: text.trim() === '' }).toEqual({ provider, blank: false });
    if (typeof expected === 'string') expect(text).toBe(expected);
    else if (expected) expect(text).toMatch(expected);
  }
}

describe('blank failure text is replaced where the result is built', () => {
  it.each(BLANKS.map((b) => [JSON.stringify(b), b]))('ActionResult.fail(%s)', (_label, blank) => {
    const result = ActionResult.fail(blank);
    expect(result.error).toBe(BLANK_FAILURE_TEXT);
    expectNonBlankEverywhere(result, BLANK_FAILURE_TEXT);
  });

  it('the constructor, with(), subclasses and extra fields', () => {
    class Traced<T = unknown> extends ActionResult<T> {
      static override readonly fields = ActionResult.extendFields('traceId');
      declare readonly traceId?: string;
    }
    expect(new ActionResult({ ok: false }).error).toBe(BLANK_FAILURE_TEXT);
    expect(new ActionResult({ ok: false, error: 42 as unknown as string }).error).toBe(BLANK_FAILURE_TEXT);
    expect(ActionResult.fail('It broke.').with({ error: '  ' }).error).toBe(BLANK_FAILURE_TEXT);
    expect(Traced.fail('', { traceId: 't1' })).toMatchObject({ error: BLANK_FAILURE_TEXT, traceId: 't1' });
    expect(Traced.fail(' ')).toBeInstanceOf(Traced);
    // Text with content around whitespace is kept as written; a success keeps no error.
    expect(ActionResult.fail('  spaced  ').error).toBe('  spaced  ');
    expect(ActionResult.success('').error).toBeUndefined();
  });

  it('a result from another copy of the library with a blank error is still sent with text', () => {
    const foreign = Object.freeze({ ok: false, error: '', [Symbol.for('agenttoolkit.ActionResult')]: true }) as unknown as ActionResult<unknown>;
    expect(providerTexts(foreign)).toEqual({ anthropic: BLANK_FAILURE_TEXT, chat: BLANK_FAILURE_TEXT, responses: BLANK_FAILURE_TEXT, mcp: BLANK_FAILURE_TEXT, gemini: BLANK_FAILURE_TEXT });
  });
});

describe('every path that fails a call gives non-blank text to every provider', () => {
  function registry(middleware: ToolMiddleware[] = []): Tools {
    const tools = new Tools({ logger: quiet(), middleware });
    const P = Type.Object({ mode: Type.String() });
    tools.action({ name: 'returns_blank', description: 'Fails blank.', params: P }, ({ mode }) => ActionResult.fail(mode));
    tools.action({ name: 'throws_blank', description: 'Throws blank.', params: P }, ({ mode }) => {
      throw new Error(mode);
    });
    tools.action({ name: 'rejects_string', description: 'Rejects with a blank string.', params: P }, ({ mode }) => Promise.reject(mode));
    tools.action({ name: 'streams_blank', description: 'Streams a blank error.', params: P }, async function* ({ mode }) {
      yield ToolChunk.text(mode, { state: ToolResultState.ERROR });
    });
    tools.action({ name: 'approve_me', description: 'Needs approval.', params: P, requiresApproval: true }, () => 'done');
    return tools;
  }

  it.each(BLANKS.map((b) => [JSON.stringify(b), b]))('tool paths with %s', async (_label, blank) => {
    const tools = registry();
    expectNonBlankEverywhere(await tools.execute('returns_blank', { mode: blank }), BLANK_FAILURE_TEXT);
    expectNonBlankEverywhere(await tools.execute('throws_blank', { mode: blank }), "Tool 'throws_blank' failed: an error without a message");
    expectNonBlankEverywhere(await tools.execute('rejects_string', { mode: blank }), "Tool 'rejects_string' failed: an error without a message");
    expectNonBlankEverywhere(await tools.execute('streams_blank', { mode: blank }), "Tool 'streams_blank' failed without a message.");
    const stream = tools.stream('streams_blank', { mode: blank });
    for await (const _chunk of stream) void _chunk;
    expectNonBlankEverywhere(await stream.result, "Tool 'streams_blank' failed without a message.");
  });

  it.each(BLANKS.map((b) => [JSON.stringify(b), b]))('middleware, declined and refused calls with %s', async (_label, blank) => {
    const failing: ToolMiddleware = { handle: async (call) => call.resultType.fail(blank) };
    expectNonBlankEverywhere(await registry([failing]).execute('returns_blank', { mode: 'x' }), BLANK_FAILURE_TEXT);
    const built: ToolMiddleware = { handle: async () => new ActionResult({ ok: false, error: blank }) };
    expectNonBlankEverywhere(await registry([built]).execute('returns_blank', { mode: 'x' }), BLANK_FAILURE_TEXT);
    const throwing: ToolMiddleware = {
      handle: async () => {
        throw new Error(blank);
      },
    };
    expectNonBlankEverywhere(await registry([throwing]).execute('returns_blank', { mode: 'x' }), /Internal error while running tool 'returns_blank'/);
    const tools = registry();
    expectNonBlankEverywhere(tools.declined('approve_me', blank), /^The user declined to run tool 'approve_me'\. /);
    expectNonBlankEverywhere(tools.denied('approve_me', blank), /^Permission denied for tool 'approve_me'\. /);
    expectNonBlankEverywhere(tools.unapproved('approve_me', blank), /^Tool 'approve_me' was not run: it needs approval/);
    expectNonBlankEverywhere(await executeToolCall(tools, { id: 'c', name: 'approve_me', args: { mode: blank } }, { approve: () => false }), /declined/);
  });

  it.each(BLANKS.map((b) => [JSON.stringify(b), b]))('external execution outcomes with %s', async (_label, blank) => {
    class Human extends ToolBase {
      constructor() {
        super({ name: 'human', description: 'Asks a person.', inputSchema: Type.Object({}), isExternalTool: true });
      }
      checkPermissions() {
        return PermissionDecision.allow('test');
      }
    }
    const tools = new Tools({ logger: quiet() });
    tools.register(new Human());
    const request = (await tools.execute('human', {})).result as ExternalExecutionRequest;
    expect(request).toBeInstanceOf(ExternalExecutionRequest);
    expectNonBlankEverywhere(await tools.completeExternal(request, ActionResult.fail(blank)), BLANK_FAILURE_TEXT);
    expectNonBlankEverywhere(await tools.completeExternal(request, Promise.reject(new Error(blank))), "Tool 'human' failed: an error without a message");
    expectNonBlankEverywhere(await tools.completeExternal(request, ToolChunk.text(blank, { state: ToolResultState.ERROR })), "Tool 'human' failed without a message.");
    expectNonBlankEverywhere(await tools.completeExternal(request, ToolChunk.text(blank, { state: ToolResultState.DENIED })), "Tool 'human' was denied.");
  });
});
