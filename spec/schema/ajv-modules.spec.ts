// The validator loads Ajv's modules on first use (the published build bundles them into one file, whose modules
// also run on first require only): nothing at import or registration of a deferrable schema, one dialect per dialect
// in use, and ajv-formats with the first schema naming a format. A fresh module registry per spec file (jest) makes
// this process's first compile the one observed here.
import { Tools } from '../../lib';
import { loadedAjvModules } from '../../lib/schema/ajv-modules';

const params = (properties: object, extra: object = {}) => ({ type: 'object' as const, properties, required: Object.keys(properties), ...extra });

describe('the Ajv modules the validator loads', () => {
  it('load one at a time, each when a schema first needs it', async () => {
    const tools = new Tools();
    tools.action({ name: 'add', description: 'Add.', params: params({ a: { type: 'integer' } }) }, (p: Record<string, unknown>) => Number(p.a) + 1);
    tools.action({ name: 'mail', description: 'Mail.', params: params({ to: { type: 'string', format: 'email' } }) }, (p: Record<string, unknown>) => String(p.to));
    expect(loadedAjvModules()).toEqual([]);
    expect((await tools.execute('add', { a: 1 })).result).toBe(2);
    expect((await tools.execute('add', { a: 2 })).result).toBe(3);
    expect(loadedAjvModules()).toEqual(['ajv/2020']);
    expect((await tools.execute('mail', { to: 'nobody' })).ok).toBe(false);
    expect((await tools.execute('mail', { to: 'a@example.com' })).result).toBe('a@example.com');
    expect(loadedAjvModules()).toEqual(['ajv/2020', 'ajv-formats']);
    // A schema naming another dialect is compiled at registration, with that dialect's class.
    tools.action({ name: 'old', description: 'Draft-07.', params: params({ v: { type: 'string' } }, { $schema: 'http://json-schema.org/draft-07/schema#' }) }, (p: Record<string, unknown>) => String(p.v));
    expect(loadedAjvModules()).toEqual(['ajv/2020', 'ajv-formats', 'ajv']);
    tools.action({ name: 'mid', description: '2019-09.', params: params({ v: { type: 'string' } }, { $schema: 'https://json-schema.org/draft/2019-09/schema' }) }, (p: Record<string, unknown>) => String(p.v));
    expect((await tools.execute('old', { v: 1 })).ok).toBe(false);
    expect((await tools.execute('mid', { v: 'x' })).result).toBe('x');
    expect(loadedAjvModules()).toEqual(['ajv/2020', 'ajv-formats', 'ajv', 'ajv/2019']);
  });

  it('hands out a copy of the list', () => {
    const list = loadedAjvModules() as string[];
    list.push('nothing');
    expect(loadedAjvModules()).not.toContain('nothing');
  });
});
