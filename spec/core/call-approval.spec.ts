import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';
import { canonicalInput, canonicalJson } from '../../lib/tool/call-approval';

describe('canonical input of an approval', () => {
  const tool = new Tools().action({ name: 'f', description: 'x', params: Type.Object({ n: Type.Integer() }) }, () => 1);

  it('is the sorted JSON of the validated params, and marks arguments that do not validate', () => {
    expect(canonicalInput(tool, '{"n": 1}')).toBe('{"n":1}');
    expect(canonicalInput(tool, { n: 'x', b: 2, a: 1 })).toBe('invalid:{"a":1,"b":2,"n":"x"}');
    expect(canonicalInput(tool, '{"n": "x"}')).toBe('invalid:{"n":"x"}');
    expect(canonicalInput(tool, '{not json')).toBe('invalid:{not json');
    expect(canonicalInput(tool, { n: 1n })).toBe('invalid:');
  });

  it('writes JSON with sorted keys, or nothing for what JSON cannot hold', () => {
    expect(canonicalJson({ b: [undefined, { d: 1, c: new Date(0) }], a: undefined })).toBe('{"b":[null,{"c":"1970-01-01T00:00:00.000Z","d":1}]}');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(canonicalJson(cycle)).toBeUndefined();
    expect(canonicalJson({ big: 1n })).toBeUndefined();
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});
