import { main } from '../../../examples/mcp-client';

describe('the MCP client example (examples/mcp-client.ts)', () => {
  it('registers the stdio server\'s tools and answers the model\'s calls, asking only before the write', async () => {
    const lines: string[] = [];
    const { results, asked, fingerprints } = await main((line) => lines.push(line));
    expect(lines[0]).toBe("# Registered from MCP server 'notes': mcp__notes__list_notes, mcp__notes__read_note, mcp__notes__write_note, mcp__notes__wait, mcp__notes__pid");
    expect(asked).toEqual(['mcp__notes__write_note']);
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01List', content: 'welcome', is_error: false },
      { type: 'tool_result', tool_use_id: 'toolu_02Write', content: "Saved note 'todo'.", is_error: false },
      { type: 'tool_result', tool_use_id: 'toolu_03Read', content: '{"id":"todo","text":"Ship the MCP client."}', is_error: false },
    ]);
    expect(Object.keys(fingerprints)).toEqual(['list_notes', 'read_note', 'write_note', 'wait', 'pid']);
    expect(lines.join('\n')).toContain('"name": "mcp__notes__read_note"');
  });
});
