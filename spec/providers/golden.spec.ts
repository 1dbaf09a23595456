import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicToolUses } from '../../lib/providers/anthropic';
import { geminiFunctionCalls } from '../../lib/providers/gemini';
import { mcpCallTool } from '../../lib/providers/mcp';
import { openAIChatToolCalls, openAIResponsesToolCalls } from '../../lib/providers/openai';
import { ToolSchemaFormat, Tools, type ToolCallRequest } from '../../lib';
import { GOLDEN_CASES, type GoldenCase } from './golden-cases';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
type FormatKey = keyof typeof ToolSchemaFormat;
const FORMATS = Object.keys(ToolSchemaFormat) as FormatKey[];

function register(testCase: GoldenCase): { tools: Tools; warnings: string[] } {
  const warnings: string[] = [];
  const tools = new Tools({ logger: { warn: (message: string) => warnings.push(message), error: jest.fn() } });
  tools.action({ name: testCase.name, description: `Golden case ${testCase.name}.`, params: testCase.params, strict: testCase.strict }, (params) => params);
  return { tools, warnings };
}

/** Each format's entry for the case's tool, or the reason the format left it out. */
function render(testCase: GoldenCase): Record<FormatKey, unknown> {
  const out = {} as Record<FormatKey, unknown>;
  for (const key of FORMATS) {
    const { tools, warnings } = register(testCase);
    const [entry] = tools.getSchema(ToolSchemaFormat[key]);
    out[key] = entry ?? { leftOut: warnings[0]?.replace(/^.*?: (?=tool ')/, '') };
  }
  return out;
}

/** The model's answer in each provider's response shape, turned into calls by our parsers. */
function callsFor(key: FormatKey, name: string, args: Record<string, unknown>): ToolCallRequest[] {
  const json = JSON.stringify(args);
  switch (key) {
    case 'OPENAI':
    case 'OPENAI_STRICT':
      return openAIChatToolCalls({ tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: json } }] });
    case 'OPENAI_RESPONSES':
    case 'OPENAI_RESPONSES_STRICT':
      return openAIResponsesToolCalls({ output: [{ type: 'function_call', call_id: 'call_1', name, arguments: json } as { type: string }] });
    case 'ANTHROPIC':
    case 'ANTHROPIC_STRICT':
      return anthropicToolUses({ content: [{ type: 'tool_use', id: 'toolu_1', name, input: JSON.parse(json) }] });
    case 'GEMINI':
      return geminiFunctionCalls({ candidates: [{ content: { parts: [{ functionCall: { name, args: JSON.parse(json) } }] } }] });
    default:
      return [{ id: '', name, args: JSON.parse(json) }];
  }
}

describe.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('golden case %s', (_name, testCase) => {
  const rendered = render(testCase);
  const file = join(__dirname, 'golden', `${testCase.name}.json`);

  it('renders every format exactly as checked in', () => {
    const text = `${JSON.stringify(rendered, null, 2)}\n`;
    if (UPDATE) writeFileSync(file, text);
    expect(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : `missing ${file}: run UPDATE_GOLDEN=1 and review it`).toEqual(JSON.parse(text));
  });

  it('always sends an object schema with properties, and no runtime metadata', () => {
    for (const key of FORMATS) {
      const entry = rendered[key] as Record<string, Record<string, unknown> | undefined>;
      if ('leftOut' in entry) continue;
      const schema = (entry.function?.parameters ?? entry.parameters ?? entry.input_schema ?? entry.inputSchema) as Record<string, unknown>;
      expect(schema.type).toBe(key === 'GEMINI' ? 'OBJECT' : 'object');
      expect(schema.properties).toEqual(expect.any(Object));
      expect(JSON.stringify(schema)).not.toMatch(/"(effects|tags|metadata|requiresApproval|\$id)"/);
    }
  });

  it('accepts the strict answer with the strict wire schema and the plain answer with the plain one', () => {
    const ajv = addFormats(new Ajv({ strict: false, allowUnionTypes: true, useDefaults: true }));
    const strict = (rendered.OPENAI_STRICT as { function: { parameters: object; strict: boolean } }).function;
    const plain = (rendered.OPENAI as { function: { parameters: object } }).function.parameters;
    expect(ajv.validate(plain, structuredClone(testCase.call))).toBe(true);
    expect(strict.strict).toBe(testCase.strict !== false);
    if (strict.strict) expect(ajv.validate(strict.parameters, structuredClone(testCase.strictCall ?? testCase.call))).toBe(true);
  });

  it.each(FORMATS)('round-trips a %s answer to the params a non-strict call gives', async (key) => {
    const entry = rendered[key] as object;
    if ('leftOut' in entry) return;
    const { tools } = register(testCase);
    const args = key.endsWith('STRICT') && testCase.strict !== false ? (testCase.strictCall ?? testCase.call) : testCase.call;
    const [call] = callsFor(key, testCase.name, args);
    if (key === 'MCP') {
      const result = await mcpCallTool(tools, { name: call!.name, arguments: call!.args as Record<string, unknown> });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toEqual(testCase.expected);
      return;
    }
    const result = await tools.execute(call!.name, call!.args);
    expect(result.error).toBeUndefined();
    expect(result.result).toEqual(testCase.expected);
  });
});
