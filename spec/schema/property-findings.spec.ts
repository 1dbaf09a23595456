// The counterexamples the property-based test (spec/hardening/provider-schemas.property.spec.ts) found, kept as tests
// with variants of the same class.
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';

const action = (tools: Tools, params: object, strict = true) => tools.action({ name: 't', description: 'T.', params: params as never, ...(strict ? {} : { strict: false }) }, (p: unknown) => p);

describe('findings of the property-based test', () => {
  it('Gemini checks the field names of a merged root allOf', () => {
    const params = { type: 'object', allOf: [{ type: 'object', properties: {} }, { type: 'object', properties: { 'first name': { type: 'number' } } }] };
    expect(() => action(new Tools({ formats: [ToolSchemaFormat.GEMINI] }), params, false)).toThrow(/#\/properties\/first name is named 'first name'/);
    expect(() => action(new Tools({ formats: [ToolSchemaFormat.ANTHROPIC] }), params, false)).toThrow(/#\/properties\/first name is named 'first name'/);
  });

  it.each([
    ['unevaluatedProperties: false', { unevaluatedProperties: false }],
    ['additionalProperties: false', { additionalProperties: false }],
  ])('an allOf part with %s closed to another part’s field is refused in every merging format, naming the part', (_name, closed) => {
    const params = { type: 'object', allOf: [{ type: 'object', properties: {}, ...closed }, { type: 'object', properties: { a: { type: 'null' } } }] };
    expect(() => action(new Tools(), params)).toThrow(/#\/allOf\/0 is closed .* to the field 'a' that another allOf part declares/);
    for (const format of [ToolSchemaFormat.ANTHROPIC, ToolSchemaFormat.MCP, ToolSchemaFormat.GEMINI, ToolSchemaFormat.OPENAI]) {
      expect(() => action(new Tools({ formats: [format] }), params, false)).toThrow(ToolDefinitionError);
    }
    // Closed to nothing another part declares: merged.
    const fine = { type: 'object', allOf: [{ type: 'object', properties: { a: { type: 'string' } }, ...closed }, { type: 'object', properties: { a: { type: 'string' } } }] };
    expect(() => action(new Tools(), { ...fine, allOf: [fine.allOf[0]] })).not.toThrow();
  });

  it.each([
    ['oneOf whose branches both take null', { oneOf: [{ type: ['string', 'null'] }, { enum: [null, 'a'] }] }],
    ['a typed enum without null', { type: ['string', 'null'], enum: ['a'] }],
    ['a const', { const: 'x' }],
  ])('a strict null for an omitted field is stripped when the field does not take null: %s', async (_name, field) => {
    const tools = new Tools();
    action(tools, { type: 'object', properties: { a: field } }, false);
    expect(await tools.execute('t', { a: null })).toMatchObject({ ok: true, result: {} });
  });

  it('a oneOf with exactly one branch taking null keeps the null', async () => {
    const tools = new Tools();
    action(tools, { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'null' }] } } }, false);
    expect(await tools.execute('t', { a: null })).toMatchObject({ ok: true, result: { a: null } });
  });

  it.each([
    ['an enum', { type: 'string', enum: ['red'] }],
    ['a const', { const: 'on' }],
  ])('a strict null for an omitted optional field does not disqualify the union branch declaring it (%s)', async (_name, inner) => {
    const params = {
      type: 'object',
      properties: { a: { anyOf: [{ type: 'object', properties: { a: inner }, required: [] }, { $ref: '#/$defs/Shared' }] } },
      $defs: { Shared: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] } },
    };
    const tools = new Tools();
    action(tools, params);
    expect(await tools.execute('t', { a: { a: null } })).toMatchObject({ ok: true, result: { a: {} } });
    expect(await tools.execute('t', { a: { s: 'x' } })).toMatchObject({ ok: true, result: { a: { s: 'x' } } });
  });

  it.each([
    ['not', { not: { type: 'string' } }],
    ['allOf of parts taking null', { allOf: [{ not: { type: 'string' } }, { type: 'null' }] }],
  ])('a null the field takes through %s is kept, even where another allOf part requires the field', async (_name, field) => {
    const params = { type: 'object', properties: { a: { type: 'array', items: { type: 'object', allOf: [{ type: 'object', properties: { user_name: field } }, { type: 'object', properties: { user_name: { type: 'null' } }, required: ['user_name'] }] } } } };
    const tools = new Tools();
    action(tools, params, false);
    expect(await tools.execute('t', { a: [{ user_name: null }] })).toMatchObject({ ok: true, result: { a: [{ user_name: null }] } });
  });

  it.each([
    ['an allOf inside the other branch', { type: 'object', allOf: [{ type: 'object', properties: { user_name: {} } }] }],
    ['an untyped field in the other branch', { type: 'object', properties: { user_name: {} } }],
    ['a nullable field in the other branch', { type: 'object', properties: { user_name: { type: ['number', 'null'] } } }],
    ['a $ref to the other branch', { $ref: '#/$defs/Other' }],
  ])('a null another union branch takes is kept when stripping it would make the arguments invalid (%s)', async (_name, other) => {
    const params = {
      type: 'object',
      $defs: { Other: { type: 'object', allOf: [{ type: 'object', properties: { user_name: {} } }] } },
      properties: {
        a: { oneOf: [{ type: 'object', properties: { user_name: { type: 'number' } } }, other, { type: 'array', prefixItems: [{ type: 'string' }], items: false }] },
      },
    };
    const tools = new Tools();
    action(tools, params, false);
    const result = await tools.execute('t', { a: { user_name: null } });
    expect(result.ok).toBe(true);
    expect(result.result).toEqual({ a: { user_name: null } });
    // The null of a field nothing takes is still stripped, and a value invalid either way keeps the stripped errors.
    expect((await tools.execute('t', { a: { user_name: 5 } })).ok).toBe(false);
  });
  describe('a strict null in a union picks the branch where the field may be left out, not the first that declares it', () => {
    const shared = { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] };
    it.each([
      ['a $ref in the second branch (the reported seed)', { type: 'object', properties: { tags: { type: 'number' } }, required: ['tags'] }, { type: 'object', properties: { tags: { $ref: '#/$defs/Shared' } }, required: [] }],
      ['a plain object in the second branch', { type: 'object', properties: { tags: { type: 'number' } }, required: ['tags'] }, { type: 'object', properties: { tags: shared }, required: [] }],
      ['a string enum in the first branch', { type: 'object', properties: { tags: { enum: ['a', 'b'] } }, required: ['tags'] }, { type: 'object', properties: { tags: { type: 'string' } } }],
      ['a $ref in the first branch', { type: 'object', properties: { tags: { $ref: '#/$defs/Shared' } }, required: ['tags'] }, { type: 'object', properties: { tags: { type: 'number' } } }],
    ])('%s', async (_name, first, second) => {
      const params = { type: 'object', properties: { a: { anyOf: [first, second] } }, required: [], $defs: { Shared: shared } };
      const tools = new Tools();
      action(tools, params);
      const listed = tools.getSchema(ToolSchemaFormat.OPENAI_STRICT);
      expect(listed).toHaveLength(1);
      expect(await tools.execute('t', { a: { tags: null } })).toMatchObject({ ok: true, result: { a: {} } });
      // A value neither branch takes is still refused.
      expect((await tools.execute('t', { a: { tags: true } })).ok).toBe(false);
    });

    it('a required field whose schema takes null still holds the null in its branch', async () => {
      const tools = new Tools();
      action(tools, { type: 'object', properties: { a: { anyOf: [
        { type: 'object', properties: { tags: { type: ['number', 'null'] } }, required: ['tags'] },
        { type: 'object', properties: { tags: { type: 'string' } } },
      ] } }, required: ['a'] });
      expect(await tools.execute('t', { a: { tags: null } })).toMatchObject({ ok: true, result: { a: { tags: null } } });
    });
  });
});
