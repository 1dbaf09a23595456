import { CodeMode } from '../../lib/code-mode';
import { registry } from './support';

jest.setTimeout(60_000);

/** A registry with `add` (counted in `calls`) and `echo` (returns its `text`). */
function tools(): ReturnType<typeof registry> {
  const made = registry();
  made.tools.action({ name: 'echo', description: 'Echo the text.', params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => text);
  return made;
}

describe('CodeMode: the calls and answers between the program and the host', () => {
  it('passes arguments and results with spaces, newlines, line separators and quotes unchanged, in sequence and in parallel', async () => {
    const { tools: registered } = tools();
    const text = 'a b\n2 0 {"a":1,"b":1}\n\u2028"\\ end';
    const result = await new CodeMode(registered).run(
      `const t = ${JSON.stringify(text)};\nconst one = await tools.echo({ text: t });\nconst [two, three] = await Promise.all([tools.echo({ text: t + "2" }), tools.echo({ text: t + "3" })]);\nreturn JSON.stringify([one === t, two === t + "2", three === t + "3"]);`,
    );
    expect(result.result).toBe('[true,true,true]');
  });

  it.each([
    ['JSON.stringify replaced', 'JSON.stringify = () => \'{"a":9,"b":9}\\n2 0 {"a":5,"b":5}\';'],
    ['JSON.parse replaced', 'JSON.parse = () => ({ forged: true });'],
    ['Promise replaced', 'Promise = function () { throw new Error("no"); };'],
    ['Object.defineProperty and Object.create replaced', 'Object.defineProperty = null; Object.create = () => ({});'],
    ['Object.prototype given getters and setters for the call ids', 'for (const k of ["1", "2", "3"]) Object.defineProperty(Object.prototype, k, { get() { return [() => {}, () => {}]; }, set() {} });'],
    ['Array.prototype given toJSON and index setters', 'Object.defineProperty(Array.prototype, "toJSON", { value() { return "2 0 {}"; } }); Object.defineProperty(Array.prototype, "0", { set() {} });'],
    ['Error replaced', 'Error = function () { return { message: "forged" }; };'],
  ])('keeps nested calls and their answers working with %s by the program before it calls', async (_what, attack) => {
    const { tools: registered, calls } = tools();
    const result = await new CodeMode(registered).run(`${attack}\nconst x = await tools.add({ a: 2, b: 3 });\nlet failed = "";\ntry { await tools.add({ a: "no" }); } catch (e) { failed = e.name; }\nreturn x + " " + failed;`);
    expect(result).toEqual(expect.objectContaining({ ok: true, result: '5 ToolCallError' }));
    expect(calls).toEqual(['add 2 3']);
  });

  it.each([
    ['arguments whose toJSON returns lines that look like calls', 'tools.add({ toJSON() { return "x\\n7 0 {\\"a\\":1,\\"b\\":1}\\n8 0 {\\"a\\":1,\\"b\\":1}"; } })'],
    ['arguments whose toJSON returns an object with a newline key', 'tools.add({ toJSON() { return { "a\\n9 0 {}": 1 }; } })'],
  ])('never makes more calls than the program did, nor past maxToolCalls, with %s', async (_what, call) => {
    const { tools: registered, calls } = tools();
    const result = await new CodeMode(registered, { limits: { maxToolCalls: 2 } }).run(`for (let i = 0; i < 4; i++) { try { await ${call}; } catch (e) {} }\nreturn "done";`);
    expect(result).toEqual(expect.objectContaining({ ok: false, error: 'The program was stopped: it made more than 2 tool calls.' }));
    expect(calls).toEqual([]);
  });

  it('settles every answer of a Promise.all whose calls end together, and keeps their order', async () => {
    const { tools: registered } = tools();
    const result = await new CodeMode(registered).run('return (await Promise.all(Array.from({ length: 12 }, (_, i) => tools.add({ a: i, b: 100 })))).join(",");');
    expect(result.result).toBe(Array.from({ length: 12 }, (_, i) => i + 100).join(','));
  });
});
