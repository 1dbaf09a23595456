/** The analysis itself: simple commands, their words and wrappers, redirections, risk features and failures. */
import { analyzeCommand, analyzeCommandSync, loadBashParser, type ShellAnalysis, type ShellWord } from '../../../lib/builtins';

const show = (w: ShellWord): string => (w.literal ? w.text : `<${w.text}>`);
const views = (a: ShellAnalysis): string[][] => a.commands.map((c) => c.views.map((v) => v.map(show).join(' ')));

describe('analyzeCommand', () => {
  it('loads the parser once and answers synchronously afterwards', async () => {
    const parser = await loadBashParser();
    expect(await loadBashParser()).toBe(parser);
    const a = analyzeCommandSync('ls -la')!;
    expect(a.commands.map((c) => c.program)).toEqual(['ls']);
    expect(analyzeCommandSync('ls -la')).toBe(a); // cached
  });

  it('finds every simple command with its program, words, assignments and redirections', async () => {
    const a = await analyzeCommand('FOO=1 LANG=C git commit -m "a b" > out.txt 2>&1 && rm -rf / | tee x; cat < in; cat <<< s');
    expect(a.commands.map((c) => c.program)).toEqual(['git', 'rm', 'tee', 'cat', 'cat']);
    expect(a.commands[0]!.words.map(show)).toEqual(['git', 'commit', '-m', 'a b']);
    expect(a.commands[0]!.assignments).toEqual(['FOO=1', 'LANG=C']);
    expect(a.commands[0]!.allowViews).toBe(0);
    expect(a.redirects.map((r) => [r.operator, r.fd, r.kind, r.target && show(r.target)])).toEqual([
      ['>', undefined, 'write', 'out.txt'],
      ['>&', 2, 'duplicate', '1'],
      ['<', undefined, 'read', 'in'],
      ['<<<', undefined, 'herestring', 's'],
    ]);
    expect(a.commands[3]!.redirects.map((r) => r.kind)).toEqual(['read']);
    expect(a.commands[4]!.redirects.map((r) => r.kind)).toEqual(['herestring']);
    expect([...a.features]).toEqual(['assignment', 'pipeline']);
    expect(a.unanalysable).toBeUndefined();
    expect(Object.isFrozen(a) && Object.isFrozen(a.commands) && Object.isFrozen(a.commands[0])).toBe(true);
  });

  it('classifies redirections', async () => {
    const a = await analyzeCommand('x >&- 2>&- 3<&0 4<&file >&out <&- >>app &>both &>>both2 >|clob');
    expect(a.redirects.map((r) => `${r.operator}:${r.kind}`)).toEqual(['>&-:duplicate', '>&-:duplicate', '<&:duplicate', '<&:read', '>&:write', '<&-:read', '>>:write', '&>:write', '&>>:write', '>|:write']);
  });

  it('unwraps wrappers and records where the program actually run sits', async () => {
    const a = await analyzeCommand('sudo -u root env -i A=1 nice -n 5 timeout -k 1 10 stdbuf -oL xargs -0 rm -f');
    expect(views(a)[0]).toEqual([
      'sudo -u root env -i A=1 nice -n 5 timeout -k 1 10 stdbuf -oL xargs -0 rm -f',
      'env -i A=1 nice -n 5 timeout -k 1 10 stdbuf -oL xargs -0 rm -f',
      'nice -n 5 timeout -k 1 10 stdbuf -oL xargs -0 rm -f',
      'timeout -k 1 10 stdbuf -oL xargs -0 rm -f',
      'stdbuf -oL xargs -0 rm -f',
      'xargs -0 rm -f',
      'rm -f <<input>>',
    ]);
    expect(a.commands[0]!.programAt).toEqual([17, 14, 11, 8, 4, 2, 0]);
    expect(a.commands[0]!.allowViews).toBe(1);
    expect(a.commands[0]!.assignments).toEqual(['A=1']);
    expect(a.commands[0]!.program).toBe('rm');
  });

  it.each([
    ['env -u', 'env -u', true],
    ['timeout', 'timeout', false],
    ['xargs -I', 'xargs -I', true],
    ['xargs -I "$R" x', 'xargs -I <"$R"> x', true],
    ['xargs --replace=@ cp @ dst', 'xargs --replace=@ cp @ dst', false],
    ['xargs -i cp {} dst', 'xargs -i cp {} dst', false],
    ['nice --adjustment 5 ls', 'nice --adjustment 5 ls', false],
    ['env -- "$X"', 'env -- <"$X">', true],
    ['env $X ls', 'env <$X> ls', true],
    ['sudo -- ls', 'sudo -- ls', false],
    ['time --output=t ls', 'time --output=t ls', false],
    ['ionice --pid 4', 'ionice --pid 4', false],
    ['sudo --shell', 'sudo --shell', true],
  ])('wrapper %j', async (command, written, opaque) => {
    const a = await analyzeCommand(command);
    expect(views(a)[0]![0]).toBe(written);
    expect(a.commands[0]!.opaque).toBe(opaque);
  });

  it('replaces xargs placeholders with run-time words', async () => {
    expect(views(await analyzeCommand('xargs --replace=@ cp @ dst'))[0]).toEqual(['xargs --replace=@ cp @ dst', 'cp <@> dst']);
    expect(views(await analyzeCommand('xargs -i cp {} dst'))[0]).toEqual(['xargs -i cp {} dst', 'cp <{}> dst']);
    expect(views(await analyzeCommand('xargs -I % sh -c "echo %"'))[0]).toEqual(['xargs -I % sh -c echo %', 'sh -c <echo %>']);
  });

  it('decodes quoting as bash does', async () => {
    const words = async (command: string): Promise<string[]> => (await analyzeCommand(command)).commands[0]!.words.map(show);
    expect(await words("echo $'a\\tb\\n' $'\\'' $'\\e\\E\\a\\b\\f\\r\\v\\\\\\\"\\?'")).toEqual(['echo', 'a\tb\n', "'", '\x1b\x1b\x07\b\f\r\v\\"?']);
    expect(await words("echo $'\\x41\\101\\u00e9\\U0001F600' $'\\cA' $'\\q' $'\\x' $'\\U110000'")).toEqual(['echo', 'AAé😀', "<$'\\cA'>", "<$'\\q'>", "<$'\\x'>", "<$'\\U110000'>"]);
    expect(await words('echo "a\\"b\\$c\\\\d\\e" "" \'\' x\\ y')).toEqual(['echo', 'a"b$c\\d\\e', '', '', 'x y']);
    expect(await words('echo "$" a$ "a"$\'b\'c')).toEqual(['echo', '<"$">', '<a$>', 'abc']);
    expect(await words('echo ~ a=b 42')).toEqual(['echo', '<~>', 'a=b', '42']);
  });

  it.each([
    ['cp x ~/y', '~/y'],
    ['cp x ~', '~'],
    ['cp x ~root/y', '~root/y'],
    ['cp x ~+/y', '~+/y'],
    ['cp x ~-/y', '~-/y'],
    ['cp x D=~/y', 'D=~/y'],
    ['cp x D=a:~/y', 'D=a:~/y'],
  ])('%j: a tilde prefix is expanded by the shell, so the word is known only when it runs', async (command, source) => {
    const word = (await analyzeCommand(command)).commands[0]!.words[2]!;
    expect(word).toEqual({ text: source, literal: false, splits: false, tilde: true });
  });

  it.each(['cp x \\~/y', "cp x '~/y'", 'cp x "~"/y', 'cp x a~/y', 'cp x --t=~/y', 'cp x 1D=~/y'])('%j: a quoted, escaped or inner tilde stays literal text', async (command) => {
    const word = (await analyzeCommand(command)).commands[0]!.words[2]!;
    expect(word.literal).toBe(true);
    expect(word.text).toContain('~');
  });

  it.each(['X=~/y', 'X=a:~/y'])('the assignment %j expands its tilde prefix', async (command) => {
    const analysis = await analyzeCommand(`${command} cp a b`);
    expect(analysis.commands[0]!.assignments).toHaveLength(1);
  });

  it.each([
    ['echo $(id)', ['command_substitution']],
    ['echo `id`', ['command_substitution']],
    ['cat <(ls)', ['process_substitution']],
    ['echo $((1))', ['arithmetic']],
    ['((x++))', ['arithmetic']],
    ['for ((i=0;i<2;i++)); do echo; done', ['control_flow', 'arithmetic']],
    ['[[ -f x ]]', ['test_command', 'arithmetic']],
    ['echo ${x:-y}', ['parameter_expansion']],
    ['echo ${x}', ['expansion']],
    ['echo $x', ['expansion']],
    ['echo *', ['glob']],
    ['echo {1..3}', ['glob']],
    ['(ls)', ['subshell']],
    ['f() { ls; }', ['function_definition']],
    ['ls &', ['background']],
    ['bash <<EOF\nls\nEOF', ['inline_code', 'heredoc_to_shell']],
    ['eval ls', ['inline_code']],
    ['PATH=/x', ['assignment']],
    ['x=1 y=2', []],
    ['a[1]=2', ['assignment']],
    ['export A=1', ['assignment']],
    ['unset A', ['assignment']],
    ['if a; then b; fi', ['control_flow']],
    ['case $x in a) b;; esac', ['control_flow', 'expansion']],
    ['select x in a; do b; done', ['control_flow']],
    ['for HOME in /x; do b; done', ['control_flow', 'assignment']],
    ['echo "$(ls)"', ['command_substitution']],
  ])('%j has %j', async (command, features) => {
    expect([...(await analyzeCommand(command)).features].sort()).toEqual([...features].sort());
  });

  it.each([
    ['echo "x', 'syntax error'],
    ['echo $(', 'syntax error'],
    ['ls )', 'syntax error'],
    ['echo ' + '$('.repeat(400) + ')'.repeat(400), /syntax error|nested too deep/],
    ['{ '.repeat(300) + 'ls; ' + '}; '.repeat(300), 'nested too deep'],
    ['bash -c "bash -c \\"bash -c \'bash -c \\\\\\"bash -c \\\\\\\\\\\\\\"bash -c ls\\\\\\\\\\\\\\"\\\\\\"\'\\""', 'nested too deep'],
  ] as [string, string | RegExp][])('%j cannot be analysed: %s', async (command, reason) => {
    const a = await analyzeCommand(command);
    expect(a.unanalysable).toMatch(reason);
  });

  it('analyses inline shell code and find -exec commands as nested commands', async () => {
    const a = await analyzeCommand('bash -ec "ls; rm x" && find . -exec grep -l y {} + -execdir touch {} \\; && su -c "id" root && watch -n 1 "df -h" && sh -- script.sh a && bash -o errexit script.sh');
    expect(a.commands.map((c) => [c.program, c.nested, c.runsShellCode, c.opaque])).toEqual([
      ['ls', true, false, false],
      ['rm', true, false, false],
      ['bash', false, true, false],
      ['grep', true, false, false],
      ['touch', true, false, false],
      ['find', false, false, false],
      ['id', true, false, false],
      ['su', false, true, false],
      ['df', true, false, false],
      ['watch', false, true, false],
      ['sh', false, true, false],
      ['bash', false, true, false],
    ]);
  });

  it('marks shells whose code is not visible as opaque', async () => {
    for (const command of ['sh', 'bash -s', 'bash -c "$X"', 'bash -c', 'eval "$X"', 'watch "$X"', 'su', 'sh -s -- a', 'bash -c -- "$X"', 'bash --rcfile x']) {
      expect([command, (await analyzeCommand(command)).commands.at(-1)!.opaque]).toEqual([command, true]);
    }
    for (const command of ['source x.sh', '. x.sh', 'bash x.sh', 'bash --norc x.sh', 'bash -c -- ls', 'watch --interval 2 ls']) {
      expect([command, (await analyzeCommand(command)).commands.at(-1)!.opaque]).toEqual([command, false]);
    }
  });

  it('refuses a command longer than a million characters', async () => {
    expect((await analyzeCommand(`echo ${'x'.repeat(1_000_000)}`)).unanalysable).toMatch(/longer than/);
  });

  it("adds git's subcommand view after its global options", async () => {
    expect(views(await analyzeCommand('git -C a --no-pager push -f'))[0]).toEqual(['git -C a --no-pager push -f', 'git push -f']);
    expect(views(await analyzeCommand('git $X push'))[0]).toEqual(['git <$X> push']);
    expect(views(await analyzeCommand('git push'))[0]).toEqual(['git push']);
  });

  it('evicts old analyses from its cache', async () => {
    const first = await analyzeCommand('echo first');
    for (let i = 0; i < 80; i++) await analyzeCommand(`echo ${i}`);
    const again = await analyzeCommand('echo first');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('a shared analysis', () => {
  it('cannot be changed by one caller for the next', async () => {
    const a = await analyzeCommand('echo $(rm -rf /) > out');
    const features = a.features as Set<string>;
    features.delete('command_substitution');
    features.clear();
    features.add('glob');
    expect(() => {
      (a.commands[0]!.words[0] as { text: string }).text = 'ls';
    }).toThrow();
    const again = await analyzeCommand('echo $(rm -rf /) > out');
    expect(again).toBe(a);
    expect([...again.features]).toEqual(['command_substitution']);
    expect(again.commands.map((c) => c.program)).toEqual(['rm', 'echo']);
  });
});
