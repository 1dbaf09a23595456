// raceAbort listens to the call's signal one microtask late, and only for a tool still running then. These specs pin
// what must not change: an abort at any moment cancels a running call, and a tool that answers at once never has a
// listener added to the caller's signal.
import { FunctionTool, Tools } from '../../lib';
import { CANCELLED, raceAbort } from '../../lib/pipeline/await-call';

function countingSignal(): { signal: AbortSignal; controller: AbortController; added: () => number } {
  const controller = new AbortController();
  let added = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    added++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  return { signal: controller.signal, controller, added: () => added };
}

const hang = new FunctionTool(() => new Promise(() => undefined), { name: 'hang', description: 'never answers' });
const quick = new FunctionTool(async () => 2, { name: 'quick', description: 'answers at once' });

describe('cancelling a running call', () => {
  it('an abort in the same turn as the call, before any listener exists, cancels it', async () => {
    const { controller, signal } = countingSignal();
    const pending = new Tools().register(hang).execute('hang', {}, { signal });
    controller.abort();
    expect((await pending).error).toMatch(/cancelled/);
  });

  it('an abort one microtask later cancels it', async () => {
    const { controller, signal } = countingSignal();
    const pending = new Tools().register(hang).execute('hang', {}, { signal });
    queueMicrotask(() => controller.abort());
    expect((await pending).error).toMatch(/cancelled/);
  });

  it('an abort a timer later cancels it, through the listener added while it runs', async () => {
    const { controller, signal, added } = countingSignal();
    const pending = new Tools().register(hang).execute('hang', {}, { signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(added()).toBeGreaterThan(0);
    controller.abort();
    expect((await pending).error).toMatch(/cancelled/);
  });

  it('a tool that answers at once adds no listener to the caller\'s signal', async () => {
    const { signal, added } = countingSignal();
    const result = await new Tools().register(quick).execute('quick', {}, { signal });
    expect(result.result).toBe(2);
    expect(added()).toBe(0);
  });

  it('raceAbort removes its listener when the value settles after it was added', async () => {
    const { signal } = countingSignal();
    let finish!: (v: string) => void;
    const raced = raceAbort(new Promise<string>((resolve) => (finish = resolve)), signal);
    await new Promise((resolve) => setTimeout(resolve, 1));
    finish('done');
    await expect(raced).resolves.toBe('done');
    const controller = new AbortController();
    const late = raceAbort(new Promise(() => undefined), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    await expect(late).rejects.toBe(CANCELLED);
  });
});
