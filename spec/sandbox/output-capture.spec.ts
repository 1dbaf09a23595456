import { OutputCapture } from '../../lib/sandbox/output-capture';

const euro = Buffer.from('€'); // e2 82 ac
const party = Buffer.from('🎉'); // f0 9f 8e 89

describe('OutputCapture', () => {
  it('drops a character the budget would split, whatever the chunking', () => {
    const bytes = Buffer.concat([Buffer.from('abc'), party, Buffer.from('tail')]);
    for (let budget = 3; budget <= 6; budget++) {
      for (let split = 0; split <= bytes.length; split++) {
        const capture = new OutputCapture(budget);
        capture.push('stdout', bytes.subarray(0, split));
        capture.push('stdout', bytes.subarray(split));
        expect([budget, split, capture.text('stdout')]).toEqual([budget, split, 'abc']);
        expect(capture.truncated).toBe(true);
      }
    }
  });

  it('keeps a character that ends exactly at the budget', () => {
    const capture = new OutputCapture(4);
    capture.push('stdout', Buffer.from('a'));
    capture.push('stdout', Buffer.concat([euro, Buffer.from('b')]));
    expect(capture.text('stdout')).toBe('a€');
  });

  it('cuts a stream whose next chunk was dropped because the other stream used the budget', () => {
    const capture = new OutputCapture(5);
    capture.push('stdout', Buffer.concat([Buffer.from('ab'), euro.subarray(0, 1)]));
    capture.push('stderr', Buffer.from('xyz'));
    capture.push('stdout', euro.subarray(1));
    expect(capture.text('stdout')).toBe('ab');
    expect(capture.text('stderr')).toBe('xy');
  });

  it('leaves untruncated output as the command wrote it, invalid bytes included', () => {
    const capture = new OutputCapture(10);
    capture.push('stdout', Buffer.from([0x61, 0xe2, 0x82]));
    capture.push('stdout', Buffer.alloc(0));
    expect(capture.text('stdout')).toBe('a\ufffd');
    expect(capture.truncated).toBe(false);
  });
});
