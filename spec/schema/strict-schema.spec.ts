import { Type } from '@sinclair/typebox';
import { toStrictSchema } from '../../lib';
import { ToolDefinitionError, ToolSchemaFormat, Tools } from '../../lib';

const strict = (schema: object) => toStrictSchema(JSON.parse(JSON.stringify(schema)), "tool 't'");
const refusal = (schema: object) => {
  try {
    strict(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('toStrictSchema refuses what strict mode cannot express, naming the tool, the path and the reason', () => {
  it.each([
    ['a map with free keys', Type.Object({ labels: Type.Record(Type.String(), Type.Number()) }), /tool 't': .*#\/properties\/labels is a map with free keys.*\{ strict: false \}/],
    ['additionalProperties with a schema', { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } }, /#\/properties\/m is a map/],
    ['a tuple', Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }), /#\/properties\/pair is a tuple/],
    ['prefixItems', { type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'string' }] } } }, /#\/properties\/p is a tuple/],
    ['an array without items', { type: 'object', properties: { list: { type: 'array' } } }, /#\/properties\/list is an array without an item schema/],
    ['a value of any type', Type.Object({ anything: Type.Any() }), /#\/properties\/anything accepts a value of any type/],
    ['an undeclared required field', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] }, /#\/required requires 'b', which it does not declare in properties/],
    ['fields beside a union', { type: 'object', properties: { u: { type: 'object', properties: { id: { type: 'string' } }, anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }] } } }, /#\/properties\/u has fields of its own beside its anyOf/],
    ['a boolean schema', { type: 'object', properties: { x: true } }, /#\/properties\/x is the boolean schema true/],
    ['a root union', { type: 'object', anyOf: [{ type: 'object', properties: {} }] }, /the schema at # is a union \(anyOf\/oneOf\) at the root/],
    ['an allOf of non-objects', Type.Object({ both: Type.Intersect([Type.String(), Type.String({ minLength: 1 })]) }), /#\/properties\/both\/allOf\/0 is part of an allOf that is not a set of plain objects/],
    ['a field declared twice by allOf', { type: 'object', properties: { b: { type: 'object', allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'number' } } }] } } }, /allOf\/1\/properties\/a declares a field another allOf part declares too/],
  ])('%s', (_name, schema, message) => {
    expect(refusal(schema)).toMatch(message);
  });

  it('refuses at registration unless the tool opts out with { strict: false }', () => {
    const tools = new Tools();
    const params = Type.Object({ labels: Type.Record(Type.String(), Type.String()) });
    expect(() => tools.action({ name: 'tag', description: 'Tag.', params }, () => 'ok')).toThrow(/tool 'tag': the params schema cannot be made strict: the schema at #\/properties\/labels/);
    const tool = tools.action({ name: 'tag', description: 'Tag.', params, strict: false }, () => 'ok');
    expect(tool.strict).toBe(false);
    expect(tools.getSchema(ToolSchemaFormat.OPENAI_STRICT)[0]!.function).toMatchObject({ strict: false, parameters: { properties: { labels: { type: 'object' } } } });
  });
});

describe('toStrictSchema conversions', () => {
  it('adds null to an enum, wraps refs and consts, keeps nullable fields as they are', () => {
    const out = strict({
      type: 'object',
      $defs: { P: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: {
        e: { type: 'string', enum: ['a', 'b'] },
        multi: { type: ['string', 'integer'], description: 'Either' },
        r: { $ref: '#/$defs/P', description: 'A point' },
        s: { $ref: '#/$defs/P', description: 'Kept beside $ref', examples: [] },
        c: { const: 'x', description: 'Always x' },
        n: { type: ['string', 'null'] },
        u: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    });
    expect(out.properties).toEqual({
      e: { type: ['string', 'null'], enum: ['a', 'b', null] },
      multi: { description: 'Either', type: ['string', 'integer', 'null'] },
      r: { description: 'A point', anyOf: [{ $ref: '#/$defs/P' }, { type: 'null' }] },
      s: { anyOf: [{ $ref: '#/$defs/P' }, { type: 'null' }], description: 'Kept beside $ref' },
      c: { description: 'Always x', anyOf: [{ type: 'string', const: 'x' }, { type: 'null' }] },
      n: { type: ['string', 'null'] },
      u: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    expect(out.required).toEqual(['e', 'multi', 'r', 's', 'c', 'n', 'u']);
    expect(Object.isFrozen(out)).toBe(true);
  });

  it('removes unsupported keywords, names those that matter in the description, drops annotations silently', () => {
    const out = strict({
      type: 'object',
      minProperties: 1,
      properties: {
        tags: { type: 'array', items: { type: 'string', format: 'uri-reference' }, uniqueItems: true, contains: { const: 'a' }, examples: [['a']] },
        id: { type: 'string', format: 'uuid', title: 'Id', deprecated: true },
      },
      required: ['tags', 'id'],
    });
    expect(out).toEqual({
      description: '(at least 1 field)',
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', description: '(format: uri-reference)' }, description: '(items must be unique; further rules are checked when the tool is called)' },
        id: { title: 'Id', type: 'string', format: 'uuid' },
      },
      required: ['tags', 'id'],
      additionalProperties: false,
    });
  });

  it('reads object and array keywords without a type as objects and arrays (draft 7)', () => {
    expect(strict({ type: 'object', properties: { o: { properties: { a: { type: 'string' } }, required: ['a'] }, l: { items: { type: 'string' } } }, required: ['o', 'l'] }).properties).toEqual({
      o: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
      l: { type: 'array', items: { type: 'string' } },
    });
  });

  it('infers the type of an untyped enum and keeps recursion through $defs', () => {
    const out = strict({ type: 'object', properties: { level: { enum: [1, 2] }, mode: { enum: ['a', 1.5] } }, required: ['level', 'mode'] });
    expect(out.properties).toEqual({ level: { type: 'integer', enum: [1, 2] }, mode: { type: ['string', 'number'], enum: ['a', 1.5] } });
    const tree = strict({ $id: 'Tree', type: 'object', properties: { kids: { type: 'array', items: { $ref: 'Tree' } } }, required: ['kids'] });
    expect(tree).toEqual({
      type: 'object',
      properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } },
      required: ['kids'],
      additionalProperties: false,
      $defs: { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } }, required: ['kids'], additionalProperties: false } },
    });
  });

  it('moves a pattern with lookaround or backreferences to the description and refuses objects nested too deep', () => {
    expect(strict({ type: 'object', properties: { p: { type: 'string', pattern: '^(?!tmp)' }, q: { type: 'string', pattern: '^[a-z]+$' } }, required: ['p', 'q'] }).properties).toEqual({
      p: { type: 'string', description: '(matches the pattern ^(?!tmp))' },
      q: { pattern: '^[a-z]+$', type: 'string' },
    });
    let deep: object = { type: 'object', properties: {} };
    for (let i = 0; i < 10; i++) deep = { type: 'object', properties: { n: deep }, required: ['n'] };
    expect(refusal(deep)).toMatch(/#(\/properties\/n){10} nests objects 11 levels deep; strict mode takes at most 10/);
  });

  it('follows a JSON Pointer $ref into the schema, moving its target into $defs', () => {
    const out = strict({ type: 'object', properties: { a: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, b: { $ref: '#/properties/a' } }, required: ['a', 'b'] });
    expect(out.properties).toEqual({ a: expect.objectContaining({ type: 'object' }), b: { $ref: '#/$defs/a' } });
    expect(out.$defs).toEqual({ a: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'], additionalProperties: false } });
  });

  it('refuses a $ref that points nowhere', () => {
    expect(refusal({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } })).toMatch(/the \$ref '#\/\$defs\/Missing' at #\/properties\/a points to nothing/);
  });
});
