import { Type } from '@sinclair/typebox';
import { Tools } from '../../lib';

describe('review: strict-mode nulls inside a union of objects without a discriminator', () => {
  const Email = Type.Object({ email: Type.String(), name: Type.Optional(Type.String()) }, { additionalProperties: false });
  const Phone = Type.Object({ phone: Type.String(), extension: Type.Optional(Type.String()) }, { additionalProperties: false });
  const Open = Type.Object({ label: Type.Optional(Type.String()) });
  const Full = Type.Object({ city: Type.String(), zip: Type.Optional(Type.String()) });

  function registry(): Tools {
    const tools = new Tools({ logger: { warn: jest.fn(), error: jest.fn() } });
    tools.action({ name: 'contact', description: 'Contact.', params: Type.Object({ via: Type.Union([Email, Phone]) }) }, (p) => p);
    tools.action({ name: 'place', description: 'Place.', params: Type.Object({ at: Type.Union([Open, Full]) }) }, (p) => p);
    return tools;
  }

  it.each([
    ['the first branch', 'contact', '{"via":{"email":"a@b.c","name":null}}', { via: { email: 'a@b.c' } }],
    ['a later closed branch', 'contact', '{"via":{"phone":"123","extension":null}}', { via: { phone: '123' } }],
    ['a later open branch', 'place', '{"at":{"city":"Oslo","zip":null}}', { at: { city: 'Oslo' } }],
    ['an open first branch', 'place', '{"at":{"label":null}}', { at: {} }],
  ])('strips the nulls of %s', async (_label, name, args, expected) => {
    expect((await registry().execute(name, args)).toJSON()).toEqual({ ok: true, result: expected });
  });
});

describe('strict nulls in a union whose object branch declares its fields through allOf (found by the property test)', () => {
  it('the null of an omitted field is removed, not matched to a branch that takes only null', async () => {
    const tools = new Tools({ logger: { warn: () => undefined, error: () => undefined } });
    const params = {
      type: 'object',
      properties: { a: { anyOf: [{ anyOf: [{ type: 'null' }] }, { type: 'object', allOf: [{ type: 'object', properties: { a: { type: 'number', minimum: 0 } }, required: [] }] }, { type: 'array', items: { type: 'integer', enum: [1] } }] } },
      required: [],
    };
    tools.action({ name: 'u', description: 'd', params: params as never }, (p: unknown) => p);
    expect(await tools.execute('u', { a: { a: null } })).toMatchObject({ ok: true, result: { a: {} } });
    expect(await tools.execute('u', { a: null })).toMatchObject({ ok: true });
  });
});
