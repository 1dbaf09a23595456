import { Type } from '@sinclair/typebox';
import {
  ActionResult,
  runToolCalls,
  Tools,
  type ToolCallRequest,
} from '../../lib';
import { anthropicToolResult, anthropicToolResultMessage } from '../../lib/providers/anthropic';
import { geminiFunctionResponse } from '../../lib/providers/gemini';
import { mcpToolResult } from '../../lib/providers/mcp';
import { openAIChatToolMessage, openAIResponsesToolOutput } from '../../lib/providers/openai';

// Text handed to a provider must be well-formed UTF-16: Anthropic refuses a lone surrogate with "no low surrogate in
// string", and the others fail in their own ways. Two ways to get one: a length cap that cuts between the two halves of
// a pair, and a tool whose own output holds one.

const PARTY = '🎉'; // U+1F389: two UTF-16 code units, '\ud83c\udf89'
/**
 * How `JSON.stringify` writes a lone surrogate: an escape, which the provider decodes back and then refuses. Only an
 * escape (after an even number of backslashes): `\\ud800` is a literal backslash followed by text.
 */
const LONE_ESCAPE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/i;

function quietTools(): Tools {
  return new Tools({ logger: { warn: () => undefined, error: () => undefined } });
}

/**
 * Every string (values and keys, at any depth) of a message a provider would receive, and of the JSON text such a
 * string holds (a result serialized into a text channel: the model decodes it).
 */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value);
    const decoded = decodeJson(value);
    if (decoded !== undefined && decoded !== value) strings(decoded, out);
  } else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a provider receives is well-formed: no lone surrogate in any string, none escaped in the request body. */
function expectSendable(message: unknown): void {
  for (const text of strings(message)) expect(text.isWellFormed()).toBe(true);
  const body = JSON.stringify(message);
  expect(body.isWellFormed()).toBe(true);
  expect(body).not.toMatch(LONE_ESCAPE);
}

describe('every message cap cuts at a character boundary', () => {
  it('the demonstrated case: a tool throwing 496 x and an emoji gives well-formed error text Anthropic accepts', async () => {
    const tools = quietTools();
    tools.action({ name: 'boom', description: 'x' }, () => {
      throw new Error('x'.repeat(496) + PARTY + ' tail');
    });
    const result = await tools.execute('boom', {});
    expect(result.error).toBe(`Tool 'boom' failed: ${'x'.repeat(496)}...`);
    expect(result.error!.isWellFormed()).toBe(true);
    expectSendable(anthropicToolResult('toolu_1', result));
  });

  it.each([493, 494, 495, 496, 497, 498, 499])('the 500-character error line with the pair at %i', async (at) => {
    const tools = quietTools();
    tools.action({ name: 'boom', description: 'x' }, () => Promise.reject(new Error('x'.repeat(at) + PARTY.repeat(10))));
    const error = (await tools.execute('boom', {})).error!;
    const line = error.slice("Tool 'boom' failed: ".length);
    expect(line.isWellFormed()).toBe(true);
    expect(line.length).toBeLessThanOrEqual(500);
    expect(line.endsWith('...')).toBe(true);
    // The cut keeps whole characters only: every x and every whole emoji before the cut, nothing else.
    expect(line.slice(0, -3).replaceAll(PARTY, '')).toBe('x'.repeat(Math.min(at, 497)));
  });

  it.each([95, 96, 97, 98])('an unknown tool name of 100+ characters with the pair at %i', async (at) => {
    const error = (await quietTools().execute('x'.repeat(at) + PARTY.repeat(20), {})).error!;
    expect(error.isWellFormed()).toBe(true);
    const shown = /^Unknown tool '(.*)'\. Available: \(none\)$/s.exec(error)![1]!;
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(shown.slice(0, -3).replaceAll(PARTY, '')).toBe('x'.repeat(Math.min(at, 97)));
  });

  it.each([195, 196, 197, 198])('a field name of 200+ characters with the pair at %i', async (at) => {
    const tools = quietTools();
    tools.action({ name: 'strict', description: 'x', params: Type.Object({}, { additionalProperties: false }) }, () => 1);
    const error = (await tools.execute('strict', { ['k'.repeat(at) + PARTY.repeat(20)]: 1 })).error!;
    expect(error.isWellFormed()).toBe(true);
    const field = /\n- (.*): is not an accepted field/.exec(error)![1]!;
    expect(field.length).toBeLessThanOrEqual(200);
    expect(field.slice(0, -3).replaceAll(PARTY, '')).toBe('k'.repeat(Math.min(at, 197)));
  });

  it.each([53, 54, 55, 56, 57])('a value echoed in a validation message with the pair at %i', async (at) => {
    const tools = quietTools();
    tools.action({ name: 'num', description: 'x', params: Type.Object({ n: Type.Number() }) }, () => 1);
    // JSON text of the value: a quote, then the characters; so the pair starts at code unit `at + 1`.
    const error = (await tools.execute('num', { n: 'v'.repeat(at) + PARTY.repeat(20) })).error!;
    expect(error.isWellFormed()).toBe(true);
    const echoed = /- n: must be number, got string (.*)\n/.exec(error)![1]!;
    expect(echoed.endsWith('..."')).toBe(true);
    expect(echoed.length).toBeLessThanOrEqual(61);
    expect(echoed.slice(1, -4).replaceAll(PARTY, '')).toBe('v'.repeat(Math.min(at, 56)));
  });

  it('a JSON parse error that quotes the arguments from inside a pair', async () => {
    const tools = quietTools();
    tools.action({ name: 'any', description: 'x' }, () => 1);
    for (const text of [PARTY.repeat(40), `{"a": 1} ${PARTY}`, `${PARTY}{`, '\ud83c']) {
      const error = (await tools.execute('any', text)).error!;
      expect(error).toMatch(/^Arguments for tool 'any' are not valid JSON \(/);
      expect(error.isWellFormed()).toBe(true);
    }
  });

  it('a lone surrogate in what a tool throws, short or long, high or low', async () => {
    const tools = quietTools();
    const cases: Array<[string, string]> = [
      ['\udc00 broken', '\ufffd broken'],
      ['broken \ud800', 'broken \ufffd'],
      [`${'x'.repeat(300)}\udfff${'x'.repeat(300)}`, `${'x'.repeat(300)}\ufffd${'x'.repeat(196)}...`],
      ['a\udc00\ud800b', 'a\ufffd\ufffdb'],
      ['\ud800', '\ufffd'],
    ];
    let i = 0;
    tools.action({ name: 'boom', description: 'x' }, () => {
      throw new Error(cases[i++]![0]);
    });
    for (const [, shown] of cases) {
      const error = (await tools.execute('boom', {})).error!;
      expect(error).toBe(`Tool 'boom' failed: ${shown}`);
      expect(error.isWellFormed()).toBe(true);
    }
  });

  it('a throwing permission check: the denial quotes its error cut at a character boundary', async () => {
    const tools = quietTools();
    tools.action(
      {
        name: 'guarded',
        description: 'x',
        permissions: {
          checkPermissions: () => {
            throw new Error('y'.repeat(497) + PARTY + ' tail \ud800');
          },
        },
      },
      () => 1,
    );
    const outcome = await runToolCalls(tools, [{ id: 'c1', name: 'guarded', args: {} }]);
    const ran = outcome.ran[0]!;
    expect(ran.result.ok).toBe(false);
    expect(ran.decision!.message).toContain(`${'y'.repeat(497)}...`);
    expect(ran.decision!.message).not.toContain('tail');
    expect(ran.decision!.message!.isWellFormed()).toBe(true);
    expect(ran.result.error!.isWellFormed()).toBe(true);
  });
});

describe('every provider result builder sends well-formed text, whatever the tool returned', () => {
  const call: ToolCallRequest = { id: 'call_1', name: 'tool', args: {} };
  const results: Array<[string, ActionResult<unknown>]> = [
    ['a lone high surrogate', ActionResult.success('\ud800')],
    ['a lone low surrogate', ActionResult.success('\udc00x')],
    ['a reversed pair', ActionResult.success('\udf89\ud83c')],
    ['an object with one in a value and a key', ActionResult.success({ a: '\ud800', ['k\udfff']: [1, { deep: 'x\udbff' }] })],
    ['an array', ActionResult.success(['ok', '\ud800', { b: '\udc00' }])],
    ['a __proto__ key beside one', ActionResult.success(JSON.parse('{"__proto__": {"x": "\\ud800"}, "y": 1}') as unknown)],
    ['a failure', ActionResult.fail('failed: \ud800')],
  ];

  describe.each(results)('%s', (_name, result) => {
    it('OpenAI Chat Completions tool message', () => expectSendable(openAIChatToolMessage('call_1', result)));
    it('OpenAI Responses function_call_output', () => expectSendable(openAIResponsesToolOutput('call_1', result)));
    it('Anthropic tool_result message', () => expectSendable(anthropicToolResultMessage([{ call, result }])));
    it('Gemini functionResponse', () => expectSendable(geminiFunctionResponse(call, result)));
    it('MCP CallToolResult', () => expectSendable(mcpToolResult(result)));
  });

  it('keeps well-formed values as they are, pairs included, and does not copy them', () => {
    const value = { text: `ok ${PARTY}`, nested: [PARTY] };
    const response = geminiFunctionResponse(call, ActionResult.success(value));
    expect(response.functionResponse.response.output).toBe(value);
    expect(mcpToolResult(ActionResult.success(value)).structuredContent).toBe(value);
    expect(openAIChatToolMessage('c', ActionResult.success(`a ${PARTY}`)).content).toBe(`a ${PARTY}`);
  });

  it('repairs a copy, never the tool result itself, and keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "\\ud800"}, "a": "\\udc00"}') as Record<string, unknown>;
    const output = mcpToolResult(ActionResult.success(value)).structuredContent!;
    expect(output).not.toBe(value);
    expect(value.a).toBe('\udc00');
    expect(output.a).toBe('\ufffd');
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')!.value).toEqual({ polluted: '\ufffd' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a literal backslash-u text in a string is not a surrogate and stays as it was', () => {
    const value = { path: 'C:\\ud800\\file' };
    const output = mcpToolResult(ActionResult.success(value)).structuredContent!;
    expect(output).toEqual(value);
  });

  it('echoed call ids and names are well-formed too', () => {
    const odd: ToolCallRequest = { id: 'id\ud800', name: 'n\udc00', args: {} };
    expectSendable(geminiFunctionResponse(odd, ActionResult.success(1)));
    expectSendable(openAIChatToolMessage('id\ud800', ActionResult.success(1)));
    expectSendable(openAIResponsesToolOutput('id\ud800', ActionResult.success(1)));
    expectSendable(anthropicToolResult('id\ud800', ActionResult.success(1)));
  });
});
