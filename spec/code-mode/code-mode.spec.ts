import { ActionResult, FunctionTool, Tools } from '../../lib';
import { CodeMode, DEFAULT_LIMITS } from '../../lib/code-mode';
import { PermissionDecision, PermissionEngine, PermissionMiddleware } from '../../lib/permissions';
import { registry } from './support';

jest.setTimeout(60_000);

describe('CodeMode: programs and nested calls', () => {
  it('runs calls in sequence and in parallel (Promise.all has three calls in flight at once)', async () => {
    const { tools } = registry();
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const allThere = new Promise<void>((resolve) => (release = resolve));
    tools.action({ name: 'wait', description: 'Wait for the others.', params: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }, async ({ n }) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (inFlight === 3) release();
      await allThere;
      inFlight -= 1;
      return n;
    });
    const result = await new CodeMode(tools).run(
      'const x = await tools.add({ a: 1, b: 2 });\nconst y = await tools.add({ a: x, b: 4 });\nconst all = await Promise.all([tools.wait({ n: 1 }), tools.wait({ n: 2 }), tools.wait({ n: 3 })]);\nconsole.log("sum", y);\nreturn all;',
    );
    expect(result).toEqual(expect.objectContaining({ ok: true, result: 'sum 7\n[\n  1,\n  2,\n  3\n]' }));
    expect(most).toBe(3);
  });

  it('gives the program the validation message of a call with invalid arguments, and it can recover', async () => {
    const { tools, calls } = registry();
    const result = await new CodeMode(tools).run('try { await tools.add({ a: "one" }); } catch (e) { console.log("failed:", e.message); }\nreturn await tools.add({ a: 1, b: 1 });');
    expect(result.ok).toBe(true);
    expect(result.result).toMatch(/^failed: .*\b(a|b)\b.*\n2$/s);
    expect(calls).toEqual(['add 1 1']);
  });

  it('runs nested calls with the outer context: tools.execute("run_code") through the registry', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools);
    tools.register(codeMode.tool());
    const result = await tools.execute('run_code', { code: 'return await tools.add({ a: 2, b: 3 })' });
    expect(result).toEqual(expect.objectContaining({ ok: true, result: '5' }));
  });

  it('passes results as JSON values and returns non-string values as JSON text', async () => {
    const { tools } = registry();
    tools.action({ name: 'info', description: 'An object.', params: { type: 'object', properties: {} } }, () => ({ name: 'x', list: [1, 2] }));
    const result = await new CodeMode(tools).run('const info = await tools.info();\nreturn { n: info.list.length, name: info.name };');
    expect(JSON.parse(result.result as string)).toEqual({ n: 2, name: 'x' });
  });

  it('gives a tool result of undefined to the program as null', async () => {
    const tools = new Tools();
    tools.action({ name: 'nothing', description: 'Returns nothing.', params: { type: 'object', properties: {} } }, () => undefined);
    expect((await new CodeMode(tools).run('return [await tools.nothing()]')).result).toBe('[\n  null\n]');
  });

  it('runs nothing for a signal aborted before the start', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run('return 1', { signal: AbortSignal.abort() });
    expect(result).toEqual(expect.objectContaining({ ok: false, error: 'The program was cancelled.' }));
  });

  it('ignores an onCall listener that throws', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run('return await tools.add({ a: 1, b: 1 })', { onCall: () => { throw new Error('listener bug'); } });
    expect(result.result).toBe('2');
  });

  it('names the line of a thrown error and of a syntax error', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools);
    const thrown = await codeMode.run('const a = 1;\nconst b = 2;\nthrow new Error("boom " + (a + b));');
    expect(thrown).toEqual(expect.objectContaining({ ok: false, error: 'The program failed at line 3: Error: boom 3' }));
    const syntax = await codeMode.run('const a = 1;\nconst b = ;');
    expect(syntax.ok).toBe(false);
    expect(syntax.error).toMatch(/^The program failed at line 2: SyntaxError: /);
  });

  it('names the line of a failed nested call the program did not catch, in sequence and in Promise.all', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools);
    const single = await codeMode.run('const a = 1;\nawait tools.add({ a: 1, b: 1 });\nawait tools.add({ a: "x", b: 1 });\nreturn a;');
    expect(single.error).toMatch(/^The program failed at line 3: ToolCallError: Invalid arguments for tool 'add':\n- a: must be number/);
    const parallel = await codeMode.run('const ok = tools.add({ a: 1, b: 1 });\nconst bad = tools.add({ b: 1 });\nreturn await Promise.all([ok, bad]);');
    expect(parallel.error).toMatch(/^The program failed at line 2: ToolCallError: Invalid arguments for tool 'add':\n- a: is required/);
    const caught = await codeMode.run('try { await tools.add({}); } catch (e) { return [e.name, e instanceof Error, typeof e.stack]; }');
    expect(JSON.parse(caught.result as string)).toEqual(['ToolCallError', true, 'string']);
  });

  it('keeps what the program printed before it failed', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run('console.log("step 1");\nthrow new Error("no")');
    expect(result.error).toBe('The program failed at line 2: Error: no\nOutput before it stopped:\nstep 1\n');
  });
});

describe('CodeMode: permissions and approval of nested calls', () => {
  function guarded(approval: boolean): { tools: Tools; ran: string[] } {
    const ran: string[] = [];
    const tools = new Tools();
    tools.action({ name: 'delete_file', description: 'Delete a file.', params: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, requiresApproval: approval }, ({ path }) => {
      ran.push(String(path));
      return `deleted ${path}`;
    });
    return { tools, ran };
  }

  it('asks approve for a call that needs approval: approved, it runs', async () => {
    const { tools, ran } = guarded(true);
    const asked: unknown[] = [];
    const codeMode = new CodeMode(tools, { approve: (tool, call) => (asked.push([tool.name, call.args, call.id]), true) });
    const result = await codeMode.run('return await tools.delete_file({ path: "a.txt" })');
    expect(result).toEqual(expect.objectContaining({ ok: true, result: 'deleted a.txt' }));
    expect(asked).toEqual([['delete_file', { path: 'a.txt' }, 'delete_file-1-1']]);
    expect(ran).toEqual(['a.txt']);
  });

  it('declined, or with no one to ask, the program sees a rejection and nothing ran', async () => {
    const { tools, ran } = guarded(true);
    const program = 'try { await tools.delete_file({ path: "a.txt" }); return "ran"; } catch (e) { return "refused: " + e.message; }';
    const declined = await new CodeMode(tools, { approve: () => false }).run(program);
    expect(declined.result).toMatch(/^refused: .*declined/i);
    const thrown = await new CodeMode(tools, { approve: () => Promise.reject(new Error('ui closed')) }).run(program);
    expect(thrown.result).toMatch(/^refused: .*declined/i);
    const nobody = await new CodeMode(tools).run(program);
    expect(nobody.result).toMatch(/^refused: .*approv/i);
    expect(ran).toEqual([]);
  });

  it('never asks for a call that needs no approval', async () => {
    const { tools, ran } = guarded(false);
    const approve = jest.fn(() => true);
    await new CodeMode(tools, { approve }).run('await tools.delete_file({ path: "b" })');
    expect(approve).not.toHaveBeenCalled();
    expect(ran).toEqual(['b']);
  });

  it('a deny rule of the permission engine denies a nested call; the tool never runs', async () => {
    const ran: string[] = [];
    const engine = new PermissionEngine({ settings: { deny: ['delete_file'] } });
    const tools = new Tools({ middleware: [new PermissionMiddleware(engine, { ask: () => true })] });
    tools.action({ name: 'delete_file', description: 'Delete a file.', params: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }, ({ path }) => ran.push(String(path)));
    const codeMode = new CodeMode(tools);
    tools.register(codeMode.tool());
    const result = await tools.execute('run_code', { code: 'try { await tools.delete_file({ path: "x" }) } catch (e) { return e.message }' });
    expect(result.ok).toBe(true);
    expect(result.result).toMatch(/denied/i);
    expect(ran).toEqual([]);
  });

  it('a bypass-immune ask still asks under an allow rule for the tool, and a no stops the call', async () => {
    const ran: string[] = [];
    const engine = new PermissionEngine({ settings: { allow: ['edit_config'] } });
    const asked: string[] = [];
    const tools = new Tools({ middleware: [new PermissionMiddleware(engine, { ask: (call, decision) => (asked.push(`${call.name}: ${decision.message}`), false) })] });
    tools.register(
      new FunctionTool((params) => ran.push(String(params.key)), {
        name: 'edit_config',
        description: 'Edit the configuration.',
        params: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        permissions: { checkPermissions: () => PermissionDecision.ask('Editing the configuration is a safety check.', { bypassImmune: true }) },
      }),
    );
    const result = await new CodeMode(tools).run('try { await tools.edit_config({ key: "x" }) } catch (e) { return e.message }');
    expect(asked).toEqual(['edit_config: Editing the configuration is a safety check.']);
    expect(result.result).toMatch(/declined/i);
    expect(ran).toEqual([]);
  });
});

describe('CodeMode: limits', () => {
  it('stops the program at maxToolCalls: the calls before ran, the one past it did not', async () => {
    const { tools, calls } = registry();
    const result = await new CodeMode(tools, { limits: { maxToolCalls: 3 } }).run('for (let i = 0; i < 10; i++) { try { await tools.add({ a: i, b: 0 }) } catch (e) {} }\nreturn "done"');
    expect(result).toEqual(expect.objectContaining({ ok: false, error: 'The program was stopped: it made more than 3 tool calls.' }));
    expect(calls).toEqual(['add 0 0', 'add 1 0', 'add 2 0']);
  });

  it('stops while(true){} at the time limit, even inside try/catch/finally, and no later call runs', async () => {
    const { tools, calls } = registry();
    const codeMode = new CodeMode(tools, { limits: { timeoutMs: 300 } });
    const result = await codeMode.run('try { while (true) {} } catch (e) { await tools.add({ a: 1, b: 1 }) } finally { await tools.add({ a: 2, b: 2 }) }');
    expect(result).toEqual(expect.objectContaining({ ok: false, error: 'The program was stopped: it ran past its time limit of 300 ms.' }));
    expect(calls).toEqual([]);
  });

  it('stops a program whose nested call outlasts the time limit, and aborts that call', async () => {
    const tools = new Tools();
    let aborted: unknown;
    tools.action({ name: 'slow', description: 'Slow.', params: { type: 'object', properties: {} } }, (_p, _d, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve((aborted = signal.reason ?? true)))));
    const result = await new CodeMode(tools, { limits: { timeoutMs: 300 } }).run('await tools.slow(); return "after"');
    expect(result.error).toBe('The program was stopped: it ran past its time limit of 300 ms.');
    expect(aborted).toBeDefined();
  });

  it.each([
    ['strings', 'const a = []; while (true) a.push("x".repeat(1e5));'],
    ['arrays', 'const a = []; while (true) a.push(new Array(1e5).fill(1));'],
    ['one huge string', 'let s = "x"; while (true) s = s + s;'],
    ['a caught out-of-memory error', 'const a = []; while (true) { try { a.push("y".repeat(1e6)) } catch (e) {} }'],
  ])('stops a memory bomb of %s at the memory limit', async (_kind, code) => {
    const { tools } = registry();
    const result = await new CodeMode(tools, { limits: { memoryBytes: 32 * 1024 * 1024, timeoutMs: 20_000 } }).run(code);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/out of memory|time limit|string too long/);
  });

  it('ends deep recursion with a stack overflow the program sees as an error', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run('function f(n) { return f(n + 1) + 1 }\nreturn f(0)');
    expect(result.error).toMatch(/^The program failed at line \d+: InternalError: stack overflow/);
  });

  it('cuts printed output and the return value at maxOutputChars, with a note', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools, { limits: { maxOutputChars: 100 } }).run('for (let i = 0; i < 50; i++) console.log("line " + i);\nreturn "x".repeat(1e6)');
    expect(result.ok).toBe(true);
    const text = result.result as string;
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('\n[output cut at 100 characters]')).toBe(true);
    expect(text.length).toBe(100 + '\n[output cut at 100 characters]'.length);
  });

  it('puts run_code results under the registry output budget like any result', async () => {
    const { tools } = registry({ outputBudget: { maxChars: 200 } });
    tools.register(new CodeMode(tools).tool());
    const result = await tools.execute('run_code', { code: 'return "z".repeat(5000)' });
    expect(result.ok).toBe(true);
    expect(String(result.result).length).toBeLessThanOrEqual(200);
  });

  it('ends the program and its in-flight nested call when the outer signal aborts', async () => {
    const tools = new Tools();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    let toolSignal: AbortSignal | undefined;
    tools.action({ name: 'slow', description: 'Slow.', params: { type: 'object', properties: {} } }, (_p, _d, { signal }) => {
      toolSignal = signal;
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
    });
    const controller = new AbortController();
    const codeMode = new CodeMode(tools);
    tools.register(codeMode.tool());
    const pending = tools.execute('run_code', { code: 'await tools.slow(); while (true) {}' }, { signal: controller.signal });
    await running;
    controller.abort();
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(toolSignal?.aborted).toBe(true);
  });

  it('states its defaults and refuses malformed limits and exposure with a message naming the field', () => {
    const { tools } = registry();
    expect(new CodeMode(tools).limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({ timeoutMs: 30_000, memoryBytes: 64 * 1024 * 1024, maxToolCalls: 50, maxOutputChars: 20_000, stackBytes: 512 * 1024 });
    expect(() => new CodeMode(tools, { limits: { timeoutMs: 0 } })).toThrow('CodeMode limits.timeoutMs must be a positive integer, got 0.');
    expect(() => new CodeMode(tools, { limits: { maxToolCalls: 1.5 } })).toThrow('limits.maxToolCalls must be a positive integer');
    expect(() => new CodeMode(tools, { limits: { memoryBytes: 1024 } })).toThrow('limits.memoryBytes must be at least 33554432');
    expect(() => new CodeMode(tools, { limits: { timeout: 5 } as never })).toThrow("CodeMode limits has no 'timeout'");
    expect(() => new CodeMode(tools, { limits: { timeoutMs: (() => 5) as never } })).toThrow('limits.timeoutMs must be a positive integer, got () => 5.');
    expect(() => new CodeMode(tools, { expose: ['add', 'nope'] })).toThrow('CodeMode expose names tools that are not registered: "nope"');
    expect(() => new CodeMode(tools, { expose: 'add' as never })).toThrow('CodeMode expose takes a list of tool names or a predicate');
  });
});

describe('CodeMode: the sandbox holds', () => {
  it('offers no host globals: no require, process, timers, fetch, WebAssembly or module loading', async () => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run(
      'const names = ["require", "process", "setTimeout", "setInterval", "fetch", "WebAssembly", "module", "Buffer", "__call", "__log", "globalThis.process"];\n' +
        'const seen = names.map((n) => { try { return n + "=" + typeof eval(n) } catch (e) { return n + "!" } });\n' +
        'const own = Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n));\n' +
        'return { seen, own };',
    );
    const { seen, own } = JSON.parse(result.result as string) as { seen: string[]; own: string[] };
    expect(seen.every((entry) => entry.endsWith('!') || entry.endsWith('=undefined'))).toBe(true);
    expect(own.filter((name) => !['globalThis', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'undefined', 'tools', 'console', 'NaN', 'Infinity'].includes(name))).toEqual([]);
  });

  it.each([
    ['a constructor chain from tools', 'return tools.add.constructor("return typeof process")()'],
    ['Function', 'return Function("return typeof require + typeof process")()'],
    ['the global object of Function', 'return typeof Function("return this")().process'],
    ['an async function constructor', 'return await (async () => {}).constructor("return typeof process")()'],
  ])('keeps the host out of reach through %s', async (_kind, code) => {
    const { tools } = registry();
    const result = await new CodeMode(tools).run(code);
    // The whole outcome, so a failure shows what the run answered.
    expect(result).toEqual({ ok: true, result: expect.stringMatching(/^(undefined){1,2}$/) });
  });

  it('refuses import() and import.meta', async () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools);
    expect((await codeMode.run('return await import("node:fs")')).ok).toBe(false);
    expect((await codeMode.run('return import.meta')).ok).toBe(false);
  });

  it('shares no object with the host: polluting prototypes and the tools object stays inside the interpreter', async () => {
    const { tools, calls } = registry();
    const result = await new CodeMode(tools).run(
      'Object.prototype.polluted = "yes"; Array.prototype.push = () => 0; Object.prototype.toJSON = function () { return { a: 100, b: 100 } };\n' +
        'try { tools.add = () => 42 } catch (e) {}\ntry { delete tools.add } catch (e) {}\n' +
        'const r = await tools.add({ a: 1, b: 2 });\nreturn typeof r;',
    );
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof ([] as unknown[]).push).toBe('function');
    // The program's own JSON.stringify (and its toJSON) decide what it sends, as text: the host parses that text only.
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^add \d+ \d+$/);
  });

  it('exposes only the selected tools, never run_code itself (no re-entrancy)', async () => {
    const { tools, calls } = registry();
    tools.action({ name: 'secret', description: 'Not for programs.', params: { type: 'object', properties: {} } }, () => calls.push('secret'));
    const codeMode = new CodeMode(tools, { expose: (tool) => tool.name !== 'secret' });
    tools.register(codeMode.tool());
    const other = new CodeMode(tools, { name: 'run_code_2' });
    tools.register(other.tool());
    const result = await tools.execute('run_code', { code: 'return [typeof tools.secret, typeof tools.run_code, typeof tools.run_code_2, Object.keys(tools)]' });
    expect(JSON.parse(result.result as string)).toEqual(['undefined', 'undefined', 'undefined', ['add']]);
    const calling = await tools.execute('run_code', { code: 'await tools.secret()' });
    expect(calling.ok).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe('CodeMode: the tool and its declarations', () => {
  it('is a Tool named run_code with input { code: string }, declarations in its description', () => {
    const { tools } = registry();
    const codeMode = new CodeMode(tools);
    const tool = codeMode.tool();
    expect(codeMode.tool()).toBe(tool);
    expect(tool.name).toBe('run_code');
    expect(tool.parameters).toEqual({ type: 'object', properties: { code: expect.objectContaining({ type: 'string' }) }, required: ['code'], additionalProperties: false });
    expect(tool.resolveDescription()).toContain(codeMode.declarations());
    expect(tool.isConcurrencySafe).toBe(false);
  });

  it('renders each tool as a typed method, with descriptions as doc comments and mapped names', () => {
    const tools = new Tools();
    tools.action(
      {
        name: 'read-file',
        description: 'Read a file.',
        params: { type: 'object', properties: { path: { type: 'string', description: 'Relative path.' }, limit: { type: 'integer' }, mode: { enum: ['text', 'bytes'] } }, required: ['path'] },
        returns: { type: 'object', properties: { text: { type: 'string' }, size: { type: ['number', 'null'] } }, required: ['text'] },
      },
      () => ({ text: '' }),
    );
    tools.action({ name: 'read_file', description: 'Taken.', params: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } }, () => null);
    tools.action({ name: '7zip', description: 'Pack.', params: { type: 'object', properties: {}, additionalProperties: false } }, () => null);
    expect(new CodeMode(tools).declarations()).toBe(
      [
        'declare const tools: {',
        '  /** Read a file. */',
        '  "read-file"(args: {',
        '    /** Relative path. */',
        '    path: string;',
        '    limit?: number;',
        '    mode?: "text" | "bytes";',
        '  }): Promise<{',
        '    text: string;',
        '    size?: number | null;',
        '  }>;',
        '  /** Taken. */',
        '  read_file(args: {',
        '    tags?: Array<string>;',
        '  }): Promise<unknown>;',
        '  /**',
        '   * Pack.',
        '   *',
        "   * (The tool '7zip'.)",
        '   */',
        '  _7zip(args: Record<string, never>): Promise<unknown>;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('maps a name with a dash to an identifier the program calls, and keeps a taken one quoted', async () => {
    const tools = new Tools();
    tools.action({ name: 'get-time', description: 'Time.', params: { type: 'object', properties: {} } }, () => 'noon');
    tools.action({ name: 'get-date', description: 'Date.', params: { type: 'object', properties: {} } }, () => 'monday');
    tools.action({ name: 'get_date', description: 'Other date.', params: { type: 'object', properties: {} } }, () => 'tuesday');
    const codeMode = new CodeMode(tools, { expose: ['get-time', 'get-date', 'get_date'] });
    expect(codeMode.declarations()).toContain("   * (The tool 'get-time'.)\n   */\n  get_time(args");
    expect(codeMode.declarations()).toContain('  "get-date"(args');
    expect((await codeMode.run('return [await tools.get_time({}), await tools["get-date"](), await tools.get_date()].join()')).result).toBe('noon,monday,tuesday');
  });

  it('lists only tool names in the description when the declarations are too long', () => {
    const tools = new Tools();
    for (let i = 0; i < 80; i++) tools.action({ name: `tool_${i}`, description: `Tool ${i}: ${'word '.repeat(40)}`, params: { type: 'object', properties: { x: { type: 'string' } } } }, () => i);
    const description = new CodeMode(tools).tool().resolveDescription();
    expect(description).not.toContain('declare const tools');
    expect(description).toContain('tool_0, tool_1');
  });

  it('succeeds with an empty text for a program that returns nothing', async () => {
    const { tools } = registry();
    expect(await new CodeMode(tools).run('const x = 1;')).toEqual(ActionResult.success(''));
  });
});
