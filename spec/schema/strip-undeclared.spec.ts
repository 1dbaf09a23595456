import { compileUndeclaredStripper } from '../../lib/schema/strip-undeclared';

function stripped(schema: Record<string, unknown>, data: unknown): unknown {
  compileUndeclaredStripper(schema)?.(data);
  return data;
}

describe('compileUndeclaredStripper', () => {
  it('removes undeclared fields at the root and leaves non-objects alone', () => {
    expect(stripped({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x', b: 1 })).toEqual({ a: 'x' });
    expect(stripped({ type: 'object', properties: { a: { type: 'string' } } }, 'text')).toBe('text');
    expect(stripped({ type: 'object', properties: { a: { type: 'string' } } }, null)).toBeNull();
  });

  it('is absent (nothing to call) for schemas with no open object that lists properties', () => {
    for (const schema of [{ type: 'object' }, { type: 'object', properties: { a: {} }, additionalProperties: false }, { type: 'object', properties: { a: {} }, if: {}, then: {} }]) {
      expect(compileUndeclaredStripper(schema)).toBeUndefined();
      expect(stripped(schema, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    }
  });

  it('gives the same answer on every call with the same data (plans remembered by list and by content)', () => {
    const strip = compileUndeclaredStripper({ type: 'object', properties: { o: { type: 'object', properties: { k: {} } }, l: { type: 'array', items: { type: 'object', properties: { id: {} } } } } })!;
    for (let round = 0; round < 3; round++) {
      const data = { o: { k: 1, drop: 1 }, l: [{ id: 1, drop: 2 }, { id: 2, drop: 3 }], drop: 4 };
      strip(data);
      expect(data).toEqual({ o: { k: 1 }, l: [{ id: 1 }, { id: 2 }] });
    }
  });

  it('follows draft-07 tuples with additionalItems and 2020-12 prefixItems with items', () => {
    const item = { type: 'object', properties: { id: {} } };
    const rest = { type: 'object', properties: { n: {} } };
    const data07 = [{ id: 1, x: 1 }, { n: 1, x: 2 }, { n: 2, x: 3 }];
    expect(stripped({ type: 'object', properties: { t: { type: 'array', items: [item], additionalItems: rest } } }, { t: data07 })).toEqual({ t: [{ id: 1 }, { n: 1 }, { n: 2 }] });
    const data2020 = [{ id: 1, x: 1 }, { n: 1, x: 2 }];
    expect(stripped({ type: 'object', properties: { t: { type: 'array', prefixItems: [item], items: rest } } }, { t: data2020 })).toEqual({ t: [{ id: 1 }, { n: 1 }] });
    const open = [{ id: 1, x: 1 }, { keep: true }];
    expect(stripped({ type: 'object', properties: { t: { type: 'array', items: [item] } } }, { t: open })).toEqual({ t: [{ id: 1 }, { keep: true }] });
  });

  it('adds up the fields of union branches, nested ones included', () => {
    const schema = {
      type: 'object',
      properties: {
        u: { anyOf: [{ type: 'object', properties: { x: { type: 'object', properties: { a: {} } } } }, { type: 'object', properties: { x: { type: 'object', properties: { b: {} } } } }] },
      },
    };
    expect(stripped(schema, { u: { x: { a: 1, b: 2, c: 3 }, y: 1 } })).toEqual({ u: { x: { a: 1, b: 2 } } });
  });

  it('keeps fields where a reference cannot be followed (remote, malformed, looping)', () => {
    const schema = {
      type: 'object',
      properties: {
        remote: { $ref: 'https://example.com/s.json' },
        relative: { $ref: '#defs' },
        bad: { $ref: '#/%E0%A4%A' },
        missing: { $ref: '#/$defs/None' },
        loop: { $ref: '#/$defs/A' },
        escaped: { $ref: '#/$defs/a~1b' },
      },
      $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' }, 'a/b': { type: 'object', properties: { k: {} } } },
    };
    const data = { remote: { r: 1 }, relative: { r: 2 }, bad: { r: 3 }, missing: { r: 4 }, loop: { r: 5 }, escaped: { k: 1, r: 6 } };
    expect(stripped(schema, data)).toEqual({ remote: { r: 1 }, relative: { r: 2 }, bad: { r: 3 }, missing: { r: 4 }, loop: { r: 5 }, escaped: { k: 1 } });
  });

  it('handles a schema nested deeper than its scan', () => {
    let schema: Record<string, unknown> = { type: 'object', properties: { leaf: {} } };
    for (let i = 0; i < 80; i++) schema = { type: 'object', properties: { n: schema }, additionalProperties: false };
    let data: Record<string, unknown> = { leaf: 1, extra: 2 };
    for (let i = 0; i < 80; i++) data = { n: data };
    stripped(schema, data);
    let inner = data;
    for (let i = 0; i < 80; i++) inner = inner.n as Record<string, unknown>;
    expect(inner).toEqual({ leaf: 1 });
  });
});
