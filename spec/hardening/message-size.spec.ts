import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';

describe('review: the model-facing validation message stays small', () => {
  function registry(): Tools {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'tag', description: 'Tag.', params: Type.Object({ tags: Type.Array(Type.String()) }, { additionalProperties: false }) }, () => 1);
    return tools;
  }

  it('lists the first 20 offending fields and counts the rest', async () => {
    const error = (await registry().execute('tag', { tags: Array.from({ length: 10_000 }, () => 1) })).error!;
    const lines = error.split('\n');
    expect(lines).toHaveLength(23);
    expect(lines[1]).toBe('- tags[0]: must be string, got number 1');
    expect(lines[21]).toBe('- ... and 9980 more problems of the same kinds');
  });

  it('cuts a field name of any length', async () => {
    const error = (await registry().execute('tag', { tags: [], ['k'.repeat(100_000)]: 1 })).error!;
    expect(error.length).toBeLessThan(400);
    expect(error).toContain('kkk...: is not an accepted field; remove it');
  });
});

describe('review: an unknown tool name of any length', () => {
  it('is cut when echoed back', async () => {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'one', description: 'One.' }, () => 1);
    const error = (await tools.execute('x'.repeat(1_000_000), {})).error!;
    expect(error).toBe(`Unknown tool '${'x'.repeat(97)}...'. Available: one`);
  });
});
