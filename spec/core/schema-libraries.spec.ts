/**
 * Params schemas from every supported library, at run time: TypeBox 1.x (`typebox`), TypeBox 0.34
 * (`@sinclair/typebox`), and Standard JSON Schema (zod, ArkType, valibot through `toStandardJsonSchema`).
 */
import { Type } from 'typebox';
import { Type as Type034 } from '@sinclair/typebox';
import { z } from 'zod';
import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { Action, Param, Tools, ToolDefinitionError, type Static } from '../../lib';

describe('TypeBox 1.x', () => {
  it('keeps a Type.Optional @Param optional, and a plain one required', async () => {
    class Counter {
      @Action('Count.')
      count(@Param('n', Type.Optional(Type.Integer())) n: number | undefined, @Param('label', Type.String()) label: string) {
        return `${label}:${n ?? 'none'}`;
      }
    }
    const tools = new Tools().register(new Counter());
    expect(tools.get('count')!.parameters).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' }, label: { type: 'string' } },
      required: ['label'],
      additionalProperties: false,
    });
    expect((await tools.execute('count', { label: 'x' })).result).toBe('x:none');
    expect((await tools.execute('count', { label: 'x', n: 2 })).result).toBe('x:2');
    expect((await tools.execute('count', { n: 2 })).ok).toBe(false);
  });

  it('runs a params-object method typed with TypeBox 1.x types, optional fields left out of required', async () => {
    const Params = Type.Object({ query: Type.String(), limit: Type.Optional(Type.Integer({ default: 3 })) });
    class Search {
      @Action('Search.', { params: Params, status: (p) => `Searching ${p.query}`, requiresApproval: (p) => (p.limit ?? 0) > 10 })
      search(params: Static<typeof Params>) {
        return Array.from({ length: params.limit ?? 0 }, () => params.query);
      }
    }
    const tools = new Tools().register(new Search());
    const tool = tools.get('search')!;
    expect(tool.parameters).toEqual({ type: 'object', required: ['query'], properties: { query: { type: 'string' }, limit: { type: 'integer', default: 3 } } });
    expect((await tools.execute('search', { query: 'q' })).result).toEqual(['q', 'q', 'q']);
    expect(tool.formatStatus({ query: 'q' })).toBe('Searching q');
    expect(tool.needsApproval({ query: 'q', limit: 11 })).toBe(true);
    expect(tool.needsApproval({ query: 'q' })).toBe(false);
  });

  it('refuses kinds that are not JSON Schema, naming the kind', () => {
    for (const field of [Type.Function([], Type.String()), Type.Undefined(), Type.BigInt(), Type.Symbol(), Type.Void()]) {
      expect(() => new Tools().action({ name: 'f', description: 'x', params: Type.Object({ f: field }) }, () => 1)).toThrow(/is Type\.\w+\(\), which is not JSON Schema/);
    }
  });
});

describe('TypeBox 0.34', () => {
  it('keeps its Optional marker working for @Param', () => {
    class Counter {
      @Action('Count.')
      count(@Param('n', Type034.Optional(Type034.Integer())) n?: number) {
        return n;
      }
    }
    expect(new Tools().register(new Counter()).get('count')!.parameters).toEqual({ type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false });
  });
});

describe('Standard JSON Schema', () => {
  const cases = [
    ['zod', z.object({ a: z.string(), b: z.number().default(3) })],
    ['arktype', type({ a: 'string', 'b?': 'number' })],
    ['valibot', toStandardJsonSchema(v.object({ a: v.string(), b: v.optional(v.number(), 3) }))],
  ] as const;

  it.each(cases)('takes a %s object as params, in input mode (a field with a default is not required)', async (_name, Params) => {
    const tools = new Tools();
    const seen: unknown[] = [];
    tools.action({ name: 'f', description: 'x', params: Params }, (p) => (seen.push(p), 'ok'));
    const parameters = tools.get('f')!.parameters;
    expect(parameters).toMatchObject({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
    expect(parameters.$schema).toBeUndefined();
    expect((await tools.execute('f', { a: 'x' })).ok).toBe(true);
    expect((await tools.execute('f', { b: 1 })).error).toMatch(/a/);
    expect((await tools.execute('f', { a: 1 })).ok).toBe(false);
  });

  it('validates on the JSON Schema: zod refinements and transforms do not run, the method receives the input', async () => {
    const Params = z.object({ word: z.string().min(2).refine((s) => s !== 'no').transform((s) => s.length) });
    const tools = new Tools();
    tools.action({ name: 'f', description: 'x', params: Params }, (p) => p.word);
    expect((await tools.execute('f', { word: 'no' })).result).toBe('no');
    expect((await tools.execute('f', { word: 'n' })).ok).toBe(false);
  });

  it('takes a Standard JSON Schema per @Param; optional when it accepts undefined', async () => {
    class Greeter {
      @Action('Greet.')
      greet(@Param('name', z.string().min(1)) name: string, @Param('times', z.number().int().optional()) times: number | undefined, @Param('tone', type("'warm' | 'dry'")) tone: string) {
        return `${tone} ${name} x${times ?? 1}`;
      }
    }
    const tools = new Tools().register(new Greeter());
    expect(tools.get('greet')!.parameters).toMatchObject({ required: ['name', 'tone'], additionalProperties: false });
    expect((await tools.execute('greet', { name: 'ada', tone: 'warm' })).result).toBe('warm ada x1');
    expect((await tools.execute('greet', { name: '', tone: 'warm' })).ok).toBe(false);
  });

  it('refuses a schema with no JSON Schema form, with the library reason', () => {
    expect(() => new Tools().action({ name: 'f', description: 'x', params: z.object({ at: z.date() }) }, () => 1)).toThrow(ToolDefinitionError);
    expect(() => new Tools().action({ name: 'f', description: 'x', params: z.object({ at: z.date() }) }, () => 1)).toThrow(/zod schema has no JSON Schema form/);
  });

  it('refuses a Standard Schema that is not an object at the root', () => {
    expect(() => new Tools().action({ name: 'f', description: 'x', params: z.string() as never }, () => 1)).toThrow(/params must be an object schema/);
  });

  it('refuses a @Param field schema carrying its own definitions', () => {
    const Node: z.ZodType = z.lazy(() => z.object({ next: Node.optional() }));
    class Walk {
      @Action('Walk.')
      walk(@Param('node', Node) node: unknown) {
        return node;
      }
    }
    expect(() => new Tools().register(new Walk())).toThrow(/own definitions/);
  });

  it('falls back to draft-07 when a library refuses 2020-12, and keeps that dialect named', () => {
    const legacy = {
      '~standard': {
        version: 1 as const,
        vendor: 'legacy',
        jsonSchema: {
          input: ({ target }: { target: string }) => {
            if (target !== 'draft-07') throw new Error(`unsupported target ${target}`);
            return { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } };
          },
          output: () => ({}),
        },
      },
    };
    const tools = new Tools();
    tools.action({ name: 'f', description: 'x', params: legacy }, () => 1);
    expect(tools.get('f')!.parameters.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const broken = { '~standard': { ...legacy['~standard'], jsonSchema: { input: () => { throw new Error('nope'); }, output: () => ({}) } } };
    expect(() => new Tools().action({ name: 'g', description: 'x', params: broken }, () => 1)).toThrow(/legacy schema has no JSON Schema form \(nope\)/);
    const notObject = { '~standard': { ...legacy['~standard'], jsonSchema: { input: () => null as never, output: () => ({}) } } };
    expect(() => new Tools().action({ name: 'h', description: 'x', params: notObject }, () => 1)).toThrow(/converted to null/);
  });
});
