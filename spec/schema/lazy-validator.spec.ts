// Validators compiled on a tool's first call: registration still refuses every schema it refused when it compiled
// each validator at once (same error, same code), the first call validates as before, and a schema is compiled once
// however many calls or tools need it at the same time.
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import { ToolDefinitionError, Tools } from '../../lib';
import { isDeferrable, KNOWN_FORMATS } from '../../lib/schema/deferrable';
import { toPlainJsonSchema, type JsonSchema } from '../../lib/schema/json-schema';
import { compileCount, compileValidator, lazyValidator } from '../../lib/schema/validator';
import { paramsSchema } from '../providers/schema-arbitrary';

/** What compiling `schema` at once throws (the error registration gave before validators were compiled lazily). */
function eagerError(schema: object): ToolDefinitionError | undefined {
  try {
    compileValidator(toPlainJsonSchema(schema), "tool 'probe'");
    return undefined;
  } catch (error) {
    return error as ToolDefinitionError;
  }
}

function registrationError(schema: object): unknown {
  try {
    new Tools().action({ name: 'probe', description: 'Probe.', params: schema as JsonSchema & { type: 'object' } }, () => 1);
    return undefined;
  } catch (error) {
    return error;
  }
}

let unique = 0;
/** A schema no other test compiled (so a compilation is observable in `compileCount`). */
function freshSchema(extra: Record<string, unknown> = {}): Record<string, unknown> {
  unique += 1;
  return { type: 'object', properties: { [`field_${unique}`]: { type: 'string', maxLength: 1000 + unique }, count: { type: 'integer', minimum: 0, default: 1 }, ...extra }, required: [`field_${unique}`] };
}

describe('lazy validator compilation', () => {
  const refused: Array<[string, Record<string, unknown>]> = [
    ['an unknown keyword', { type: 'object', properties: { a: { type: 'string', minLenght: 2 } } }],
    ['an unknown format', { type: 'object', properties: { a: { type: 'string', format: 'phone' } } }],
    ['a keyword value of the wrong type', { type: 'object', properties: { a: { type: 'string', minLength: 'two' } } }],
    ['a pattern that is no regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }],
    ['a required name that is no property', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] }],
    ['a default inside anyOf', { type: 'object', properties: { a: { anyOf: [{ type: 'object', properties: { x: { type: 'string', default: 'x' } } }, { type: 'string' }] } } }],
    ['a default inside oneOf, nested', { type: 'object', properties: { a: { type: 'object', properties: { b: { oneOf: [{ type: 'object', properties: { x: { type: 'number', default: 1 } } }, { type: 'null' }] } } } } }],
    ['an unknown type', { type: 'object', properties: { a: { type: 'text' } } }],
    ['a $ref loop', { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }],
    ['an empty enum', { type: 'object', properties: { a: { enum: [] } } }],
    ['an unknown keyword in a nested object', { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string', optional: true } } } } }],
  ];

  it.each(refused)('refuses %s at registration with the error of an immediate compile', (_label, schema) => {
    expect(isDeferrable(toPlainJsonSchema(schema))).toBe(false);
    const expected = eagerError(schema);
    expect(expected).toBeInstanceOf(ToolDefinitionError);
    const error = registrationError(schema);
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).code).toBe('TOOL_DEFINITION');
    expect((error as ToolDefinitionError).message).toBe(expected!.message);
  });

  it('compiles nothing at registration and compiles on the first call, which validates and applies defaults', async () => {
    const schema = freshSchema();
    const field = Object.keys(schema.properties as object)[0]!;
    const tools = new Tools();
    const before = compileCount();
    tools.action({ name: 'lazy', description: 'Lazy.', params: schema as JsonSchema & { type: 'object' } }, (params) => params);
    expect(compileCount()).toBe(before);
    const ok = await tools.execute('lazy', { [field]: 'x' });
    expect(compileCount()).toBe(before + 1);
    expect(ok.result).toEqual({ [field]: 'x', count: 1 });
    const bad = await tools.execute('lazy', { count: -1 });
    expect(bad.ok).toBe(false);
    expect(bad.error).toBe(`Invalid arguments for tool 'lazy':\n- ${field}: is required but missing\n- count: must be >= 0\nFix these fields and call the tool again.`);
    expect(compileCount()).toBe(before + 1);
  });

  it('compiles once for concurrent first calls, and once for two tools with the same schema', async () => {
    const schema = freshSchema();
    const field = Object.keys(schema.properties as object)[0]!;
    const tools = new Tools();
    tools.action({ name: 'one', description: 'One.', params: schema as JsonSchema & { type: 'object' } }, (params) => params[field]);
    tools.action({ name: 'two', description: 'Two.', params: structuredClone(schema) as JsonSchema & { type: 'object' } }, (params) => params[field]);
    const before = compileCount();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => tools.execute(i % 2 ? 'one' : 'two', i % 3 ? { [field]: `v${i}` } : '{"count": "x"}')));
    expect(compileCount()).toBe(before + 1);
    results.forEach((result, i) => expect(result.ok ? result.result : 'failed').toBe(i % 3 ? `v${i}` : 'failed'));
  });

  it('checks examples against the params schema at registration, compiling it then', () => {
    const schema = freshSchema();
    const field = Object.keys(schema.properties as object)[0]!;
    const before = compileCount();
    expect(() => new Tools().action({ name: 'ex', description: 'Ex.', params: schema as JsonSchema & { type: 'object' }, examples: [{ count: 2 }] }, () => 1)).toThrow(
      `tool 'ex': examples[0] does not match the params schema: - ${field}: is required but missing. Fix the example or the schema.`,
    );
    expect(compileCount()).toBe(before + 1);
  });

  it('adds the string formats when the first schema naming one is compiled', async () => {
    const tools = new Tools();
    tools.action({ name: 'plain', description: 'Plain.', params: Type.Object({ n: Type.Integer() }) }, ({ n }) => n);
    tools.action({ name: 'mail', description: 'Mail.', params: Type.Object({ to: Type.String({ format: 'email' }), on: Type.Optional(Type.String({ format: 'date', formatMinimum: '2020-01-01' })) }) }, ({ to }) => to);
    expect((await tools.execute('plain', { n: 1 })).result).toBe(1);
    expect((await tools.execute('mail', { to: 'a@example.com', on: '2021-05-01' })).result).toBe('a@example.com');
    const bad = await tools.execute('mail', { to: 'nobody', on: '2019-01-01' });
    expect(bad.error).toMatch(/- to: must match format "email", got string "nobody"\n- on: should be >= 2020-01-01\n/);
  });

  it('compiles a schema that references the 2020-12 meta-schema with the meta-schemas, their formats and dynamic references', async () => {
    const tools = new Tools();
    tools.action({ name: 'schema_out', description: 'Schema.', params: Type.Object({ kind: Type.String() }), returns: { $ref: 'https://json-schema.org/draft/2020-12/schema' } }, ({ kind }) => (kind === 'bad' ? { type: 5 } : { type: kind }));
    expect((await tools.execute('schema_out', { kind: 'string' })).result).toEqual({ type: 'string' });
    expect((await tools.execute('schema_out', { kind: 'bad' })).error).toMatch(/does not match the output schema it declares/);
  });

  it('compiles a schema it cannot defer at once (lazyValidator)', () => {
    const schema = toPlainJsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string', description: `fresh ${unique++}` } } });
    const before = compileCount();
    const get = lazyValidator(schema, 'probe');
    expect(compileCount()).toBe(before + 1);
    expect(get()({ a: 'x' })).toBe(true);
    expect(get()({ a: 1 })).toBe(false);
  });

  it('defers every keyword of its list, in a schema the compiler accepts', () => {
    const schema = toPlainJsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'All',
      description: 'Every deferrable keyword.',
      $comment: 'c',
      properties: {
        s: { type: 'string', minLength: 1, maxLength: 9, pattern: '^\\p{L}+$', format: 'uuid', default: 'a', examples: ['a'], deprecated: false, readOnly: false, writeOnly: false },
        n: { type: ['number', 'null'], minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 0.5 },
        e: { enum: ['a', 1, null] },
        c: { const: { k: [1] } },
        a: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer', default: 0 } }, additionalProperties: false }, minItems: 0, maxItems: 3, uniqueItems: true },
        o: { type: 'object', minProperties: 0, maxProperties: 2, additionalProperties: { type: 'string' } },
        u: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        v: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        w: { allOf: [{ type: 'string' }, { minLength: 2 }] },
        x: { not: { type: 'null' } },
      },
      required: ['s'],
      additionalProperties: false,
    });
    expect(isDeferrable(schema)).toBe(true);
    expect(() => compileValidator(schema, 'probe')).not.toThrow();
    for (const format of KNOWN_FORMATS) expect(() => compileValidator(toPlainJsonSchema({ type: 'object', properties: { f: { type: 'string', format } } }), 'probe')).not.toThrow();
  });

  it('never defers what a dialect other than 2020-12, a reference, a tuple or a prototype-named field needs', () => {
    const cases: JsonSchema[] = [
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
      { $schema: 42, type: 'object' },
      { type: 'object', properties: { a: { $ref: '#' } } },
      { type: 'object', properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } } },
      { type: 'object', properties: { constructor: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'string' } }, default: {} },
      { type: 'object', properties: { a: { type: 'array', items: { type: 'string', default: 'x' } } } },
      { type: 'object', properties: { a: { type: 'string', $schema: 'https://json-schema.org/draft/2020-12/schema' } } },
      { type: 'object', properties: { a: { type: 'number', multipleOf: 0 } } },
      { type: 'object', properties: { a: { type: ['string', 'string'] } } },
      { type: 'object', required: ['a'] },
      { type: 'object', properties: { a: { type: 'string', maxLength: 1.5 } } },
      { type: 'object', properties: { a: { type: 'string', examples: 'a' } } },
      { type: 'object', properties: { a: { anyOf: [] } } },
      { type: 'object', properties: { a: true } },
    ];
    for (const schema of cases) expect([schema, isDeferrable(schema)]).toEqual([schema, false]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { type: 'object', properties: { d: deep } };
    expect(isDeferrable(deep)).toBe(false);
  });

  // Property: a schema isDeferrable accepts always compiles (so deferring never lets through a schema the strict
  // compile would refuse). Schemas drawn from the deferrable keywords with values of any JSON type, plus unknown
  // keywords, and the provider-schema generator's schemas.
  const keywordValue = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom('string', 'integer', 'object', 'email', 'date-time', '^a+$', '(', 'a', 'b'), fc.integer({ min: -2, max: 5 }), fc.double({ noNaN: true }));
  const KEYWORDS = ['type', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'multipleOf', 'pattern', 'format', 'enum', 'const', 'default', 'uniqueItems', 'required', 'additionalProperties', 'title', 'examples', 'nullable', 'minItems', 'items', 'not', 'anyOf', 'formatMinimum'];
  const node: fc.Memo<Record<string, unknown>> = fc.memo((depth) =>
    fc.dictionary(
      fc.constantFrom(...KEYWORDS, 'properties'),
      depth <= 0
        ? keywordValue
        : fc.oneof(keywordValue, node(depth - 1), fc.dictionary(fc.constantFrom('a', 'b'), node(depth - 1), { maxKeys: 2 }), fc.array(node(depth - 1), { maxLength: 2 })),
      { maxKeys: 4 },
    ),
  );
  it('a deferred schema always compiles (property)', () => {
    let deferred = 0;
    fc.assert(
      fc.property(fc.oneof(node(3), paramsSchema), (body) => {
        const schema = toPlainJsonSchema({ ...body, type: 'object' });
        if (!isDeferrable(schema)) return;
        deferred += 1;
        compileValidator(schema, 'property');
      }),
      { numRuns: 3000 },
    );
    expect(deferred).toBeGreaterThan(300);
  });
});
