import { Type, type Static } from '@sinclair/typebox';
import { Action, RequiresApproval, Tools } from '../../lib';

const Refund = Type.Object({
  amount: Type.Number(),
  currency: Type.String({ default: 'EUR' }),
  note: Type.Optional(Type.String()),
  meta: Type.Optional(Type.Object({ reason: Type.Optional(Type.String()), tags: Type.Array(Type.String(), { default: [] }) })),
});

describe('review: approval predicates see exactly what the method receives', () => {
  const seen: unknown[] = [];
  const ran: unknown[] = [];
  class Billing {
    @Action('Refund.', { params: Refund })
    @RequiresApproval((p: Static<typeof Refund>) => (seen.push(structuredClone(p)), p.amount > 100))
    refund(p: Static<typeof Refund>): string {
      ran.push(structuredClone(p));
      return 'ok';
    }
  }

  it.each([
    ['object', { amount: 5, currency: null, note: null, meta: { reason: null } }],
    ['JSON text', '{"amount":5,"currency":null,"note":null,"meta":{"reason":null,"tags":null}}'],
    ['object without the optional fields', { amount: 5 }],
  ])('for %s arguments', async (_label, args) => {
    seen.length = 0;
    ran.length = 0;
    const tools = new Tools().register(new Billing());
    expect(tools.get('refund')!.needsApproval(args)).toBe(false);
    expect((await tools.execute('refund', args)).ok).toBe(true);
    // Asked twice, by needsApproval and by execute's own approval check, with the params the method then receives.
    expect(seen).toHaveLength(2);
    expect(ran).toEqual([seen[1]]);
    expect(seen[0]).toEqual(seen[1]);
    expect((seen[0] as { currency: string }).currency).toBe('EUR');
    expect(Object.values(seen[0] as object)).not.toContain(null);
  });
});
