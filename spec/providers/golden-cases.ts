import { Type, type TObject } from '@sinclair/typebox';

/** One schema case of the golden table, with a model answer and what the method must receive. */
export interface GoldenCase {
  readonly name: string;
  readonly params: TObject;
  /** The arguments a non-strict model sends. */
  readonly call: Record<string, unknown>;
  /** The arguments a strict-mode model sends for the same call (nulls for the fields it leaves out); default `call`. */
  readonly strictCall?: Record<string, unknown>;
  /** What the method receives (validated, defaults applied). */
  readonly expected: Record<string, unknown>;
  /** The tool opts out of strict mode. */
  readonly strict?: false;
}

enum Priority {
  Low = 1,
  High = 2,
}

const Address = Type.Object({ street: Type.String(), city: Type.Optional(Type.String()) }, { description: 'A postal address' });
const Node = Type.Recursive((This) => Type.Object({ label: Type.String(), children: Type.Array(This) }), { $id: 'TreeNode' });

export const GOLDEN_CASES: readonly GoldenCase[] = [
  {
    name: 'optional_and_nullable',
    params: Type.Object({
      name: Type.String(),
      nickname: Type.Optional(Type.String()),
      middle: Type.Union([Type.String(), Type.Null()]),
      note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
    call: { name: 'Ada', middle: null, note: null },
    strictCall: { name: 'Ada', nickname: null, middle: null, note: null },
    expected: { name: 'Ada', middle: null, note: null },
  },
  {
    name: 'defaults',
    params: Type.Object({
      query: Type.String({ description: 'What to search for' }),
      limit: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
      order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
    }),
    call: { query: 'tools' },
    strictCall: { query: 'tools', limit: null, order: null },
    expected: { query: 'tools', limit: 5, order: 'asc' },
  },
  {
    name: 'enums',
    params: Type.Object({
      color: Type.Union([Type.Literal('red'), Type.Literal('green')]),
      priority: Type.Enum(Priority),
      size: Type.Unsafe<string>({ type: 'string', enum: ['s', 'm', 'l'] }),
      level: Type.Optional(Type.Unsafe<number>({ type: 'integer', enum: [1, 2, 3] })),
    }),
    call: { color: 'green', priority: 2, size: 'm' },
    strictCall: { color: 'green', priority: 2, size: 'm', level: null },
    expected: { color: 'green', priority: 2, size: 'm' },
  },
  {
    name: 'const',
    params: Type.Object({ kind: Type.Literal('search'), version: Type.Literal(2), flag: Type.Optional(Type.Literal(true)) }),
    call: { kind: 'search', version: 2 },
    strictCall: { kind: 'search', version: 2, flag: null },
    expected: { kind: 'search', version: 2 },
  },
  {
    name: 'union_nested',
    params: Type.Object({ target: Type.Union([Type.String(), Type.Integer()], { description: 'A name or an id' }), alias: Type.Optional(Type.Union([Type.String(), Type.Integer()])) }),
    call: { target: 42 },
    strictCall: { target: 42, alias: null },
    expected: { target: 42 },
  },
  {
    name: 'discriminated_union_nested',
    params: Type.Object({
      shape: Type.Union([
        Type.Object({ kind: Type.Literal('circle'), radius: Type.Number() }),
        Type.Object({ kind: Type.Literal('rect'), width: Type.Number(), height: Type.Number(), label: Type.Optional(Type.String()) }),
      ]),
    }),
    call: { shape: { kind: 'rect', width: 2, height: 3 } },
    strictCall: { shape: { kind: 'rect', width: 2, height: 3, label: null } },
    expected: { shape: { kind: 'rect', width: 2, height: 3 } },
  },
  {
    name: 'nested_objects',
    params: Type.Object({ user: Type.Object({ name: Type.String(), address: Type.Object({ street: Type.String(), city: Type.Optional(Type.String()) }) }) }),
    call: { user: { name: 'Ada', address: { street: 'Main St' } } },
    strictCall: { user: { name: 'Ada', address: { street: 'Main St', city: null } } },
    expected: { user: { name: 'Ada', address: { street: 'Main St' } } },
  },
  {
    name: 'arrays_of_objects',
    params: Type.Object({
      lines: Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1 }), note: Type.Optional(Type.String()) }), { minItems: 1, maxItems: 50, uniqueItems: true }),
    }),
    call: { lines: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2, note: 'gift' }] },
    strictCall: { lines: [{ sku: 'a', qty: 1, note: null }, { sku: 'b', qty: 2, note: 'gift' }] },
    expected: { lines: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2, note: 'gift' }] },
  },
  {
    name: 'record_map',
    params: Type.Object({ labels: Type.Record(Type.String(), Type.String()) }),
    call: { labels: { team: 'core' } },
    expected: { labels: { team: 'core' } },
    strict: false,
  },
  {
    name: 'reused_subschema',
    params: Type.Object({ home: Address, work: Type.Optional(Address) }),
    call: { home: { street: 'Main St' } },
    strictCall: { home: { street: 'Main St', city: null }, work: null },
    expected: { home: { street: 'Main St' } },
  },
  {
    name: 'reused_ref',
    params: Type.Unsafe({
      type: 'object',
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
      properties: { from: { $ref: '#/$defs/Point' }, to: { $ref: '#/$defs/Point' }, via: { $ref: '#/$defs/Point' } },
      required: ['from', 'to'],
    }) as unknown as TObject,
    call: { from: { x: 0, y: 0 }, to: { x: 1, y: 2 } },
    strictCall: { from: { x: 0, y: 0 }, to: { x: 1, y: 2 }, via: null },
    expected: { from: { x: 0, y: 0 }, to: { x: 1, y: 2 } },
  },
  {
    name: 'recursive',
    params: Type.Object({ tree: Node }),
    call: { tree: { label: 'root', children: [{ label: 'leaf', children: [] }] } },
    expected: { tree: { label: 'root', children: [{ label: 'leaf', children: [] }] } },
  },
  {
    name: 'string_formats',
    params: Type.Object({
      homepage: Type.String({ format: 'uri', description: 'The home page' }),
      email: Type.String({ format: 'email' }),
      at: Type.String({ format: 'date-time' }),
      day: Type.Optional(Type.String({ format: 'date' })),
    }),
    call: { homepage: 'https://example.com', email: 'a@example.com', at: '2025-01-02T03:04:05Z' },
    strictCall: { homepage: 'https://example.com', email: 'a@example.com', at: '2025-01-02T03:04:05Z', day: null },
    expected: { homepage: 'https://example.com', email: 'a@example.com', at: '2025-01-02T03:04:05Z' },
  },
  {
    name: 'string_length_pattern',
    params: Type.Object({ code: Type.String({ minLength: 3, maxLength: 8, pattern: '^[A-Z]+$' }), comment: Type.Optional(Type.String({ maxLength: 140 })) }),
    call: { code: 'ABC' },
    strictCall: { code: 'ABC', comment: null },
    expected: { code: 'ABC' },
  },
  {
    name: 'numeric_bounds',
    params: Type.Object({
      ratio: Type.Number({ minimum: 0, maximum: 1 }),
      count: Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 100 }),
      price: Type.Number({ exclusiveMinimum: 0, multipleOf: 0.01 }),
    }),
    call: { ratio: 0.5, count: 1, price: 9.99 },
    expected: { ratio: 0.5, count: 1, price: 9.99 },
  },
  {
    name: 'empty_object',
    params: Type.Object({ options: Type.Object({}) }),
    call: { options: {} },
    expected: { options: {} },
  },
  {
    name: 'no_parameters',
    params: Type.Object({}),
    call: {},
    expected: {},
  },
  {
    name: 'descriptions_everywhere',
    params: Type.Object(
      {
        filter: Type.Object(
          { field: Type.String({ description: 'The field to filter on' }), values: Type.Array(Type.String({ description: 'One accepted value' }), { description: 'Accepted values' }) },
          { description: 'Which rows to keep' },
        ),
      },
      { description: 'Query options' },
    ),
    call: { filter: { field: 'team', values: ['core'] } },
    expected: { filter: { field: 'team', values: ['core'] } },
  },
  {
    name: 'intersect',
    params: Type.Object({ both: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Optional(Type.Number()) })]) }),
    call: { both: { a: 'x' } },
    strictCall: { both: { a: 'x', b: null } },
    expected: { both: { a: 'x' } },
  },
  {
    name: 'shell_command',
    params: Type.Object({ command: Type.Array(Type.String()), workdir: Type.Optional(Type.String()) }),
    call: { command: ['ls', '-la'] },
    strictCall: { command: ['ls', '-la'], workdir: null },
    expected: { command: ['ls', '-la'] },
  },
];
