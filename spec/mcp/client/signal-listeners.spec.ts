// The SDK adds an abort listener to the signal of every request and never removes it. The adapter must hand it a
// signal of the call's own: otherwise every remote call leaves a listener (and the request it holds) on the caller's
// long-lived signal, or on the one signal shared by all calls made without a signal, for the life of the process.
import { getEventListeners } from 'node:events';
import { Tools } from '../../../lib';
import { McpClientTools } from '../../../lib/mcp';
import { NEVER_ABORTED } from '../../../lib/pipeline/await-call';
import { connectInMemory, recordingLogger, sdkServer } from './support';

async function connected(): Promise<{ tools: Tools; mcp: McpClientTools }> {
  const logger = recordingLogger();
  const tools = new Tools({ logger });
  const mcp = await McpClientTools.connect(tools, { name: 'notes', client: await connectInMemory(sdkServer()), logger });
  return { tools, mcp };
}

describe('remote calls leave no listener on the caller\'s signal', () => {
  it('calls made without a signal leave none on the shared signal', async () => {
    const { tools, mcp } = await connected();
    const before = getEventListeners(NEVER_ABORTED, 'abort').length;
    for (let i = 0; i < 12; i++) expect((await tools.execute('mcp__notes__add', { a: i, b: 1 })).ok).toBe(true);
    await Promise.all(Array.from({ length: 12 }, (_, i) => tools.execute('mcp__notes__add', { a: i, b: 2 })));
    expect(getEventListeners(NEVER_ABORTED, 'abort').length).toBe(before);
    await mcp.close();
  });

  it('calls sharing one long-lived signal leave none on it, and that signal still cancels a call', async () => {
    const { tools, mcp } = await connected();
    const session = new AbortController();
    for (let i = 0; i < 12; i++) expect((await tools.execute('mcp__notes__add', { a: i, b: 1 }, { signal: session.signal })).ok).toBe(true);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    const pending = tools.execute('mcp__notes__add', { a: 1, b: 1 }, { signal: session.signal });
    session.abort();
    expect((await pending).error).toMatch(/cancelled/);
    await mcp.close();
  });
});
