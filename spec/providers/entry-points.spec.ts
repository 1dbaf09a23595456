import 'reflect-metadata';
import { Type, type Static } from '@sinclair/typebox';
import * as root from '../../lib';
import * as anthropic from '../../lib/providers/anthropic';
import * as gemini from '../../lib/providers/gemini';
import * as mcp from '../../lib/providers/mcp';
import * as openai from '../../lib/providers/openai';
import { Action, ToolSchemaFormat, Tools } from '../../lib';

describe('provider entry points', () => {
  it('each hold the functions of their provider, which the root entry does not export', () => {
    for (const [entry, prefix] of [[openai, 'openAI'], [anthropic, 'anthropic'], [gemini, 'gemini'], [mcp, 'mcp']] as const) {
      expect(Object.keys(entry).length).toBeGreaterThan(0);
      for (const name of Object.keys(entry)) expect([name, name in root]).toEqual([name, false]);
      expect(Object.keys(entry).some((name) => name.startsWith(prefix))).toBe(true);
    }
    expect(Object.keys(openai)).toEqual(expect.arrayContaining(['openAIChatFormat', 'openAIResponsesStrictFormat', 'openAIChatToolMessages']));
    expect(Object.keys(anthropic)).toEqual(expect.arrayContaining(['anthropicTools', 'ANTHROPIC_STRICT_LIMITS']));
    expect(Object.keys(root)).toEqual(expect.arrayContaining(['executeToolCalls', 'executeToolCall', 'ToolSchemaFormat']));
    expect('executeToolCalls' in openai).toBe(false);
  });

  it('let an @Action opt out of strict mode', () => {
    const Labels = Type.Object({ labels: Type.Record(Type.String(), Type.String()) });
    class Tagger {
      @Action('Tag things.', { params: Labels, strict: false })
      tag(params: Static<typeof Labels>) {
        return Object.keys(params.labels).length;
      }
    }
    const tools = new Tools().register(new Tagger());
    expect(tools.get('tag')!.strict).toBe(false);
    expect(tools.getSchema(ToolSchemaFormat.OPENAI_RESPONSES_STRICT)[0]).toMatchObject({ name: 'tag', strict: false });
  });
});
