import 'reflect-metadata';
import { Type, type Static } from '@sinclair/typebox';
import * as root from '../../lib';
import * as anthropic from '../../lib/providers/anthropic';
import * as gemini from '../../lib/providers/gemini';
import * as mcp from '../../lib/providers/mcp';
import * as openai from '../../lib/providers/openai';
import { Action, ToolSchemaFormat, Tools } from '../../lib';

describe('provider entry points', () => {
  it('export the same functions as the root entry', () => {
    for (const entry of [openai, anthropic, gemini, mcp]) {
      for (const [name, value] of Object.entries(entry)) expect([name, (root as Record<string, unknown>)[name]]).toEqual([name, value]);
    }
    expect(Object.keys(openai)).toEqual(expect.arrayContaining(['openAIChatFormat', 'openAIResponsesStrictFormat', 'executeToolCalls']));
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
