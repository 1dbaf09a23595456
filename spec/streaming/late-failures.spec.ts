// A streaming tool that fails after its consumer has gone must not leave a rejected promise nobody handles (Node
// turns that into a crash of the host process).
import { FunctionTool, Tools, collectChunks, ToolChunk } from '../../lib';
import { CANCELLED, raceAbort } from '../../lib/pipeline/await-call';

function watchUnhandled(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a streaming tool failing after its consumer stopped', () => {
  it.each([
    ['throws on the next step', async function* () { yield 'one'; await settle(); throw new Error('late failure'); }],
    ['throws at once when resumed', async function* () { yield 'one'; throw new Error('late failure'); }],
    ['ignores the abort and throws later', async function* () { yield 'one'; await settle(); await settle(); throw new Error('late failure'); }],
  ])('leaves no unhandled rejection when it %s', async (_, body) => {
    const watch = watchUnhandled();
    try {
      const tools = new Tools().register(new FunctionTool(body, { name: 'ticker', description: 'ticks' }));
      const stream = tools.stream('ticker', {});
      for await (const chunk of stream) {
        expect(chunk.content).toEqual([{ type: 'text', text: 'one' }]);
        break;
      }
      const result = await stream.result;
      expect(result.ok).toBe(false);
      await settle();
      await settle();
      await settle();
      expect(watch.seen).toEqual([]);
    } finally {
      watch.stop();
    }
  });

  it('collectChunks on an already aborted signal handles a source that rejects', async () => {
    const watch = watchUnhandled();
    try {
      const controller = new AbortController();
      controller.abort();
      const source: AsyncIterable<ToolChunk> = {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('source broke')) }),
      };
      const response = await collectChunks(source, controller.signal);
      expect(response.state).toBe('interrupted');
      await settle();
      expect(watch.seen).toEqual([]);
    } finally {
      watch.stop();
    }
  });
});

describe('raceAbort', () => {
  it('handles the rejection of a value that lost the race to an already aborted signal', async () => {
    const watch = watchUnhandled();
    try {
      const controller = new AbortController();
      controller.abort();
      let fail!: (error: Error) => void;
      const late = new Promise((_, reject) => (fail = reject));
      await expect(raceAbort(late, controller.signal)).rejects.toBe(CANCELLED);
      fail(new Error('too late'));
      await settle();
      expect(watch.seen).toEqual([]);
    } finally {
      watch.stop();
    }
  });
});
