// The chunk type promises an is-last flag; tools.stream's last chunk carries it, whatever the tool did.
import { Type } from '@sinclair/typebox';
import { ActionResult, FunctionTool, ToolChunk, ToolResultState, Tools, type ToolStream } from '../../lib';
import { capturingLogger } from '../support/capturing-logger';

async function chunksOf(stream: ToolStream): Promise<ToolChunk[]> {
  const chunks: ToolChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function registry(): Tools {
  const tools = new Tools({ logger: capturingLogger() });
  tools.register(
    new FunctionTool(async function* () { yield 'a'; yield 'b'; }, { name: 'plain', description: 'Streams two chunks.' }),
    new FunctionTool(async function* () { yield 'a'; yield ToolChunk.text('b', { state: ToolResultState.SUCCESS, isLast: true }); }, { name: 'marked', description: 'Marks its last chunk.' }),
    new FunctionTool(async function* () { yield ToolChunk.text('a', { isLast: true }); yield 'b'; }, { name: 'early', description: 'Marks a chunk that is not the last.' }),
    new FunctionTool(async function* () { yield 'a'; throw new Error('broke'); }, { name: 'breaks', description: 'Fails after a chunk.' }),
  );
  tools.action({ name: 'value', description: 'Returns a value.', params: Type.Object({}) }, () => 'done');
  tools.action({ name: 'failing', description: 'Returns a failure.', params: Type.Object({}) }, () => ActionResult.fail('no'));
  return tools;
}

describe('tools.stream: the last chunk has isLast: true', () => {
  it.each([
    ['a tool that never marks one: an empty SUCCESS chunk follows its chunks', 'plain', [['a', false], ['b', false], ['', true]], ToolResultState.SUCCESS],
    ['a tool that marks its last chunk: nothing is added', 'marked', [['a', false], ['b', true]], ToolResultState.SUCCESS],
    ['a tool that marks a chunk before its last: an empty chunk closes the stream', 'early', [['a', true], ['b', false], ['', true]], ToolResultState.SUCCESS],
    ['a tool that fails after streaming: the closing chunk is in the ERROR state', 'breaks', [['a', false], ['', true]], ToolResultState.ERROR],
    ['a tool that returns a value: its one chunk', 'value', [['done', true]], ToolResultState.SUCCESS],
    ['a tool that returns a failure: its one ERROR chunk', 'failing', [['no', true]], ToolResultState.ERROR],
    ['an unknown tool: the one chunk of its failure', 'nope', [["Unknown tool 'nope'. Available: plain, marked, early, breaks, value, failing", true]], ToolResultState.ERROR],
  ] as const)('%s', async (_case, name, expected, finalState) => {
    const chunks = await chunksOf(registry().stream(name, {}));
    expect(chunks.map((chunk) => [chunk.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), chunk.isLast])).toEqual(expected);
    expect(chunks.at(-1)!.state).toBe(finalState);
  });

  it('keeps the metadata and id of a one-chunk result it marks', async () => {
    const tools = new Tools({ logger: capturingLogger() });
    tools.action({ name: 'chunk', description: 'Returns a chunk.', params: Type.Object({}) }, () => ToolChunk.text('x', { state: ToolResultState.SUCCESS, id: 'c', metadata: { k: 1 } }));
    const [only, ...rest] = await chunksOf(tools.stream('chunk', {}));
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ isLast: true, id: 'c', metadata: { k: 1 }, state: ToolResultState.SUCCESS, content: [{ type: 'text', text: 'x' }] });
  });
});
