import { renderDeclarations, typeOf } from '../../lib/code-mode/declarations';
import { programNames } from '../../lib/code-mode/program-names';

describe('code-mode declarations: JSON Schema to TypeScript', () => {
  it.each<[string, unknown, string]>([
    ['true', true, 'unknown'],
    ['false', false, 'never'],
    ['absent', undefined, 'unknown'],
    ['not an object', 'string', 'unknown'],
    ['const', { const: 'a' }, '"a"'],
    ['enum', { enum: ['a', 1, null] }, '"a" | 1 | null'],
    ['empty enum', { enum: [] }, 'never'],
    ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, 'string | number'],
    ['oneOf with a union inside', { oneOf: [{ type: ['string', 'null'] }, { type: 'boolean' }] }, '(string | null) | boolean'],
    ['empty anyOf', { anyOf: [] }, 'never'],
    ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'integer' } } }] }, '{\n  a: string;\n} & {\n  b?: number;\n}'],
    ['empty allOf', { allOf: [] }, 'unknown'],
    ['no type', { description: 'x' }, 'unknown'],
    ['unknown type', { type: 'date' }, 'unknown'],
    ['tuple', { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, '[string, number]'],
    ['array of anything', { type: 'array' }, 'Array<unknown>'],
    ['open object', { type: 'object' }, 'Record<string, unknown>'],
    ['closed empty object', { type: 'object', properties: {}, additionalProperties: false }, 'Record<string, never>'],
    ['record', { type: 'object', additionalProperties: { type: 'number' } }, '{\n  [key: string]: number;\n}'],
    ['open with properties', { properties: { 'odd-key': { type: 'null' } }, additionalProperties: true }, '{\n  "odd-key"?: null;\n  [key: string]: unknown;\n}'],
    ['properties that are not an object', { type: 'object', properties: null, required: 'a' }, 'Record<string, unknown>'],
  ])('renders %s', (_name, schema, expected) => {
    expect(typeOf(schema, 2, 0)).toBe(expected);
  });

  it('stops at a nesting depth of 8 with unknown', () => {
    let schema: unknown = { type: 'string' };
    for (let i = 0; i < 12; i++) schema = { type: 'array', items: schema };
    expect(typeOf(schema, 2, 0)).toBe(`${'Array<'.repeat(9)}unknown${'>'.repeat(9)}`);
  });

  it('writes descriptions as doc comments: one line, several lines, none, and a comment end inside', () => {
    const text = renderDeclarations([
      { key: 'a', name: 'a', description: 'First line.\n\nSecond */ line.', parameters: { type: 'object', properties: { x: { type: 'string', description: '' }, y: { type: 'string', description: 'Why.' } } }, returns: undefined },
      { key: 'b', name: 'b', description: '  ', parameters: { type: 'object', properties: {}, additionalProperties: false }, returns: { type: 'string' } },
    ]);
    expect(text).toBe(
      [
        'declare const tools: {',
        '  /**',
        '   * First line.',
        '   *',
        '   * Second *\\/ line.',
        '   */',
        '  a(args: {',
        '    x?: string;',
        '    /** Why. */',
        '    y?: string;',
        '  }): Promise<unknown>;',
        '  b(args: Record<string, never>): Promise<string>;',
        '};',
        '',
      ].join('\n'),
    );
  });
});

describe('code-mode tool names', () => {
  it('keeps identifiers, maps dashes and leading digits, and leaves a taken mapping quoted', () => {
    expect([...programNames(['get_x', 'read-file', '7zip', 'read_file', 'a-b', 'a_b', 'x-y', 'x--y'])]).toEqual([
      ['get_x', 'get_x'],
      ['read-file', 'read-file'],
      ['7zip', '_7zip'],
      ['read_file', 'read_file'],
      ['a-b', 'a-b'],
      ['a_b', 'a_b'],
      ['x-y', 'x_y'],
      ['x--y', 'x__y'],
    ]);
    expect([...programNames(['m-1', 'm_1-'])]).toEqual([['m-1', 'm_1'], ['m_1-', 'm_1_']]);
  });
});
