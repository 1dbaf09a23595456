// fast-check arbitraries for params schemas (JSON Schema 2020-12 as TypeBox and hand-written schemas use it, with the
// shapes providers refuse mixed in) and a sampler of candidate values for a schema.
import fc from 'fast-check';

type Node = Record<string, unknown>;

const NAMES = ['a', 'b', 'id', 'user_name', 'dry-run', 'filter[id]', 'first name', 'x.y', '9lives', 'cwd?', 'constructor', 'naïve', 'n'.repeat(65), 'ok_64'.padEnd(64, 'z')];
const name = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'id', 'user_name', 'count', 'tags', 'mode') }, { weight: 1, arbitrary: fc.constantFrom(...NAMES) });
const description = fc.option(fc.oneof(fc.constantFrom('A field.', 'Refund in cents.'), fc.string({ maxLength: 20 })), { nil: undefined });
const withDescription = (node: Node) => description.map((d) => (d === undefined ? node : { ...node, description: d }));

const stringSchema = fc.record(
  {
    minLength: fc.integer({ min: 0, max: 3 }),
    maxLength: fc.integer({ min: 3, max: 12 }),
    pattern: fc.constantFrom('^[a-z]*$', '^(?!x)', '^[0-9a-z]+$', '\\ba'),
    format: fc.constantFrom('date-time', 'date', 'email', 'uuid', 'ipv4', 'hostname', 'uri'),
  },
  { requiredKeys: [] },
).map((c) => ({ type: 'string', ...(c.format === undefined ? c : { format: c.format }) }) as Node);

const numberSchema = fc.record(
  {
    type: fc.constantFrom('number', 'integer'),
    minimum: fc.integer({ min: -5, max: 0 }),
    maximum: fc.integer({ min: 1, max: 50 }),
    exclusiveMinimum: fc.constantFrom(-10, -0.5),
    exclusiveMaximum: fc.constantFrom(100, 99.5),
    multipleOf: fc.constantFrom(1, 2, 0.5),
  },
  { requiredKeys: ['type'] },
).map((c) => (c.type === 'integer' && c.multipleOf === 0.5 ? { ...c, multipleOf: 1 } : c) as Node);

const enumSchema = fc.oneof(
  fc.uniqueArray(fc.constantFrom('red', 'green', 'blue', 'x y', ''), { minLength: 1, maxLength: 4 }).map((values) => ({ type: 'string', enum: values })),
  fc.uniqueArray(fc.constantFrom(1, 2, 3, 10), { minLength: 1, maxLength: 3 }).map((values) => ({ type: 'integer', enum: values })),
  fc.uniqueArray(fc.constantFrom('a', 1, null, true), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc.constantFrom('fixed', 7, true, null).map((value) => ({ const: value })),
);

/** Rare: an enum over strict mode's limit of 1,000 values. */
const hugeEnum = fc.constant({ type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) });

const leaf: fc.Arbitrary<Node> = fc.oneof(
  { weight: 80, arbitrary: stringSchema },
  { weight: 60, arbitrary: numberSchema },
  { weight: 40, arbitrary: fc.constantFrom<Node>({ type: 'boolean' }, { type: 'null' }, { type: ['string', 'null'] }, { type: ['integer', 'string'] }) },
  { weight: 40, arbitrary: enumSchema },
  { weight: 20, arbitrary: fc.constantFrom<Node>({}, { not: { type: 'string' } }, { $ref: '#/$defs/Shared' }, { type: 'string', default: 'd' }) },
  // Unions carrying a description, a default or null (Gemini takes nothing beside anyOf).
  { weight: 20, arbitrary: fc.constantFrom<Node>({ type: ['string', 'number'], description: 'Id or index', default: 'a' }, { type: ['integer', 'boolean', 'null'], default: null }, { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 3, description: 'Size' }, { anyOf: [{ type: ['string', 'integer'] }, { type: 'null' }], description: 'Nested' }, { oneOf: [{ type: 'string', enum: ['', 'x'] }, { type: 'boolean' }], description: 'E' }) },
  { weight: 1, arbitrary: hugeEnum },
);

/** A sub-schema, nested up to `depth` levels. */
export const schemaNode: (depth: number) => fc.Arbitrary<Node> = fc.memo((depth: number): fc.Arbitrary<Node> => {
  if (depth <= 0) return leaf.chain(withDescription);
  const sub = schemaNode(depth - 1);
  return fc.oneof(
    { weight: 5, arbitrary: leaf },
    { weight: 3, arbitrary: objectSchema(sub) },
    { weight: 2, arbitrary: fc.record({ items: sub, minItems: fc.constantFrom(0, 1), uniqueItems: fc.boolean() }, { requiredKeys: ['items'] }).map((c) => ({ type: 'array', ...c })) },
    { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((prefixItems) => ({ type: 'array', prefixItems, items: false })) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('anyOf', 'oneOf'), fc.array(sub, { minLength: 1, maxLength: 3 })).map(([k, branches]) => ({ [k]: branches })) },
    { weight: 1, arbitrary: fc.array(objectSchema(sub), { minLength: 1, maxLength: 2 }).map((allOf) => ({ type: 'object', allOf })) },
    { weight: 1, arbitrary: sub.map((value) => ({ type: 'object', additionalProperties: value })) },
  ).chain(withDescription);
});

function objectSchema(sub: fc.Arbitrary<Node>): fc.Arbitrary<Node> {
  return fc
    .tuple(fc.uniqueArray(fc.tuple(name, sub), { maxLength: 3, selector: ([key]) => key }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.constantFrom(undefined, false, true), fc.constantFrom(undefined, 'dependentRequired', 'unevaluatedProperties'))
    .map(([fields, requiredFlags, additional, extra]) => {
      const properties = Object.fromEntries(fields);
      const keys = fields.map(([key]) => key);
      const node: Node = { type: 'object', properties, required: keys.filter((_, i) => requiredFlags[i]) };
      if (additional !== undefined) node.additionalProperties = additional;
      if (extra === 'dependentRequired' && keys.length >= 2) node.dependentRequired = { [keys[0]!]: [keys[1]!] };
      if (extra === 'unevaluatedProperties' && additional === undefined) node.unevaluatedProperties = false;
      return node;
    });
}

/** A params schema: an object at the root, sometimes a root allOf or union, `$defs` when a field refers to one. */
export const paramsSchema: fc.Arbitrary<Node> = fc
  .tuple(objectSchema(schemaNode(2)), fc.constantFrom('plain', 'plain', 'plain', 'allOf', 'anyOf'), objectSchema(schemaNode(1)), fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant('T'.repeat(1100)) }), fc.oneof({ weight: 15, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 10, max: 30 }) }))
  .map(([root, shape, other, longDescription, wide]) => {
    let params: Node = root;
    // Rare: many optional fields (Anthropic's strict tool use takes at most 24 optional and 16 union parameters).
    if (wide > 0) params = { ...root, properties: { ...(root.properties as Node), ...Object.fromEntries(Array.from({ length: wide }, (_, i) => [`w${i}`, i % 3 === 0 ? { type: ['string', 'null'] } : { type: 'string' }])) } };
    if (shape === 'allOf') params = { type: 'object', allOf: [root, other] };
    if (shape === 'anyOf') params = { type: 'object', anyOf: [root, other] };
    if (JSON.stringify(params).includes('#/$defs/Shared')) params = { ...params, $defs: { Shared: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] } } };
    return longDescription === undefined ? params : { ...params, description: longDescription };
  });

/** Candidate values for a schema (not all valid: the caller keeps those Ajv accepts on the original schema). */
export function candidates(schema: unknown, defs: Node, pick: () => number, depth = 0): unknown[] {
  if (typeof schema !== 'object' || schema === null || depth > 6) return [null, 'a', 1];
  const node = schema as Node;
  if (typeof node.$ref === 'string') return candidates(defs[node.$ref.slice('#/$defs/'.length)], defs, pick, depth + 1);
  if ('const' in node) return [node.const];
  if (Array.isArray(node.enum)) return node.enum.slice(0, 5);
  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.flatMap((branch) => candidates(branch, defs, pick, depth + 1));
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : ['string', 'integer', 'boolean', 'null'];
  return types.flatMap((type): unknown[] => {
    switch (type) {
      case 'string': {
        const byFormat: Record<string, string> = { 'date-time': '2026-11-30T12:00:00Z', date: '2026-11-30', email: 'a@b.co', uuid: '123e4567-e89b-42d3-a456-426614174000', ipv4: '10.0.0.1', hostname: 'example.com', uri: 'https://example.com/a' };
        return typeof node.format === 'string' ? [byFormat[node.format] ?? 'abc'] : ['abc', 'a', '', 'hello', 'x1', 'abcdefghijklm'];
      }
      case 'integer':
        return [0, 1, 2, 7, -1, 50, ...bounds(node, 1)];
      case 'number':
        return [0, 0.5, 1, 2.5, 49.5, -0.25, ...bounds(node, 0.25)];
      case 'boolean':
        return [true, false];
      case 'null':
        return [null];
      case 'array': {
        if (Array.isArray(node.prefixItems)) {
          const parts = node.prefixItems.map((item) => candidates(item, defs, pick, depth + 1));
          return [parts.map((p) => p[pick() % Math.max(p.length, 1)])];
        }
        const items = candidates(node.items, defs, pick, depth + 1);
        const one = items[pick() % Math.max(items.length, 1)];
        const two = items[pick() % Math.max(items.length, 1)];
        return [[], [one], [one, two]];
      }
      case 'object': {
        const parts = Array.isArray(node.allOf) ? [node, ...(node.allOf as Node[])] : [node];
        const value: Node = {};
        for (const part of parts) {
          const properties = (part.properties ?? {}) as Node;
          const required = new Set((part.required ?? []) as string[]);
          for (const [key, sub] of Object.entries(properties)) {
            if (!required.has(key) && pick() % 2 === 0) continue;
            const options = candidates(sub, defs, pick, depth + 1);
            Object.defineProperty(value, key, { value: options[pick() % Math.max(options.length, 1)], enumerable: true, writable: true, configurable: true });
          }
        }
        if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null) {
          const options = candidates(node.additionalProperties, defs, pick, depth + 1);
          value.k1 = options[pick() % Math.max(options.length, 1)];
        }
        return [value];
      }
      default:
        return [];
    }
  });
}

/** The values at a numeric schema's bounds: its minimum and maximum, and the first values inside its exclusive bounds. */
function bounds(node: Node, step: number): number[] {
  const out: number[] = [];
  if (typeof node.minimum === 'number') out.push(node.minimum);
  if (typeof node.maximum === 'number') out.push(node.maximum);
  if (typeof node.exclusiveMinimum === 'number') out.push(step === 1 ? Math.floor(node.exclusiveMinimum) + 1 : node.exclusiveMinimum + step);
  if (typeof node.exclusiveMaximum === 'number') out.push(step === 1 ? Math.ceil(node.exclusiveMaximum) - 1 : node.exclusiveMaximum - step);
  return out;
}
