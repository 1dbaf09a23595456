import { main } from '../../examples/quickstart';

describe('the quickstart example (npm run example)', () => {
  it('answers every provider tool call, including a failed and a declined one, and runs only approved work', async () => {
    const lines: string[] = [];
    const { openaiMessages, anthropicReply, refunds } = await main((line) => lines.push(line));

    expect(openaiMessages.map((m) => m.tool_call_id)).toEqual([
      'call_Vb3sQk9XyZr1mT8pLd2aWc4E',
      'call_7HnR2eJtKq5fYw0cXs9uBm1D',
      'call_Qe4tLp8NzA6vHr3kGy7oFj2S',
      'call_Zk1mWq5RtY8uIo3pAs6dFg9H',
    ]);
    expect(openaiMessages.every((m) => m.role === 'tool')).toBe(true);
    expect(JSON.parse(openaiMessages[0]!.content)).toEqual(['tool middleware (result 1)', 'tool middleware (result 2)']);
    expect(openaiMessages[1]!.content).toMatch(/^Error: The user declined to run tool 'refund'/);
    expect(openaiMessages[2]!.content).toContain('- b: must be integer, got string "three"');
    expect(openaiMessages[3]!.content).toBe('5');

    expect(anthropicReply.role).toBe('user');
    expect(anthropicReply.content.map((b) => [b.type, b.tool_use_id, b.is_error])).toEqual([
      ['tool_result', 'toolu_01A09q90qw90lq917835lq9', false],
      ['tool_result', 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', true],
      ['tool_result', 'toolu_01Hb6yqPzMLkSW8KF7jE3sTa', true],
      ['tool_result', 'toolu_01Mq4DXzYqnK6nB2j8ugZCRw', false],
    ]);
    expect(refunds).toEqual([]);
    expect(lines).toContain('  approve "Refunding 250 for order o-123..."? no (scripted)');
    expect(lines).toContain('  Searching for tool middleware...');
    const schemas = lines.join('\n');
    expect(schemas).not.toContain('billing-team');
  });
});
