/**
 * The here-document reader and the POSIX dialect, checked against what bash and dash really do with the same input.
 */
import { spawnSync } from 'node:child_process';
import { analyzeCommand, analyzeCommandSync, loadBashParser } from '../../../lib/builtins';
import { backquoteSubstitutions, decodeDelimiter, endsEarly } from '../../../lib/builtins/shell/heredoc';
import { isSafeVariable, steeringReason, STEERING_VARIABLES } from '../../../lib/builtins/shell/variables';

function shellOutput(shell: string, command: string): string {
  return spawnSync(shell, ['-c', command], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } }).stdout;
}

describe('here-document delimiters', () => {
  it.each([
    ['EOF', 'EOF', false],
    ["E'O'F", 'EOF', true],
    ['E"O"F', 'EOF', true],
    ['\\EOF', 'EOF', true],
    ["''EOF", 'EOF', true],
    ['"E\\"F"', 'E"F', true],
    ["''", '', true],
  ] as const)('%j is %j (quoted: %s), as bash and dash end it', (word, text, quoted) => {
    expect(decodeDelimiter(word)).toEqual({ text, quoted });
    if (text === '' || text.includes('"')) return;
    for (const shell of ['/bin/bash', '/bin/sh']) expect(shellOutput(shell, `cat <<${word}\nbody\n${text}\necho after`)).toBe('body\nafter\n');
  });

  it.each(['$EOF', '`x`', "'EOF", '"EOF', 'E\\', 'E\nF', '"$x"', ''])('%j cannot be decoded the same way everywhere: undefined', (word) => {
    expect(decodeDelimiter(word)).toBeUndefined();
  });

  it('an early end: the delimiter line, a joined continuation for an unquoted delimiter, tabs for <<-', () => {
    const plain = { text: 'EOF', quoted: false };
    expect(endsEarly(['a', 'EOF'], plain, false)).toBe(true);
    expect(endsEarly(['E\\', 'OF'], plain, false)).toBe(true);
    expect(endsEarly(['EOF\\'], plain, false)).toBe(true);
    expect(endsEarly(['E\\', 'OF'], { text: 'EOF', quoted: true }, false)).toBe(false);
    expect(endsEarly(['\t\tEOF'], plain, true)).toBe(true);
    expect(endsEarly(['\t\tEOF'], plain, false)).toBe(false);
    expect(endsEarly(['a\\\\', 'EOF x'], plain, false)).toBe(false);
  });

  it('backquotes of an unquoted body: escapes, spans already read, an unclosed one', () => {
    expect(backquoteSubstitutions('a `rm \\`x\\`` b', [])).toEqual(['rm `x`']);
    expect(backquoteSubstitutions('\\`no\\`', [])).toEqual([]);
    expect(backquoteSubstitutions('$(`x`) `y`', [[0, 6]])).toEqual(['y']);
    expect(backquoteSubstitutions('`open', [])).toBeUndefined();
  });

  it('a body read as bash reads it, and what bash and dash print', async () => {
    const command = 'cat <<EOF\n`echo one` $(echo two)\nEOF\n';
    expect((await analyzeCommand(command)).commands.map((c) => c.program)).toEqual(['echo', 'echo', 'cat']);
    for (const shell of ['/bin/bash', '/bin/sh']) expect(shellOutput(shell, command)).toBe('one two\n');
    expect((await analyzeCommand('cat <<EOF\n`open\nEOF\n')).unanalysable).toBeDefined();
  });
});

describe('the POSIX dialect', () => {
  it('is part of the analysis and of its cache key; the sync form takes it too', async () => {
    await loadBashParser();
    expect((await analyzeCommand("echo $'x'")).dialect).toBe('bash');
    expect((await analyzeCommand("echo $'x'", { dialect: 'posix' })).unanalysable).toContain("$'...'");
    expect(analyzeCommandSync("echo $'x'", { dialect: 'posix' })?.unanalysable).toBeDefined();
    expect(analyzeCommandSync("echo $'x'")?.unanalysable).toBeUndefined();
  });

  it.each(['echo ${x:-a} ${x#b} ${#x} ${x%%c}', 'export A=1', 'local a', 'f() { ls; }', 'case x in a) ls;; esac', 'echo $((1+2))', 'ls | wc', 'cat <<EOF\nx\nEOF\n'])('%j is POSIX: analysable', async (command) => {
    expect((await analyzeCommand(command, { dialect: 'posix' })).unanalysable).toBeUndefined();
  });

  it.each(['echo $[1+2]', 'export -n A', 'for ((i=0;i<1;i++)); do ls; done', 'typeset a=1', 'case x in a) ls;& esac', 'ls @(a|b)', 'a[1]=x', 'source x', 'mapfile x'])('%j is bash: unanalysable in the POSIX dialect', async (command) => {
    const analysis = await analyzeCommand(command, { dialect: 'posix' });
    expect(analysis.unanalysable).toBeDefined();
  });
});

describe('steering variables', () => {
  it('each entry has a reason; prefixes count; lower-case locals are safe, proxies are not', () => {
    for (const [name, reason] of STEERING_VARIABLES) {
      expect(reason.length).toBeGreaterThan(10);
      expect(isSafeVariable(name)).toBe(false);
    }
    expect(steeringReason('GIT_DIR')).toContain('git');
    expect(steeringReason('LD_AUDIT')).toContain('loader');
    expect(steeringReason('msg')).toBeUndefined();
    expect(isSafeVariable('msg')).toBe(true);
    expect(isSafeVariable('https_proxy')).toBe(false);
    expect(isSafeVariable('LC_TIME')).toBe(true);
    expect(isSafeVariable('1x')).toBe(false);
  });
});
