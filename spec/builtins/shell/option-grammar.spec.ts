/**
 * The option-grammar parser and verdict on their own: getopt_long's abbreviations and ambiguity, glued and separate
 * values, optional values only glued, clusters, `--`, git's negations, find's primaries, surplus operands, words
 * known only at run time, and the options a subcommand requires.
 */
import { analyzeCommand, isReadOnlyCommand, programGrammar, READ_ONLY_PROGRAMS, WRAPPER_GRAMMARS, type ProgramGrammar } from '../../../lib/builtins';
import { parseWords, resolveLong } from '../../../lib/builtins/shell/grammar/parse-words';
import { everyOptionHarmless, readOnlyVerdict } from '../../../lib/builtins/shell/grammar/grammar-verdict';
import { opt, operand } from '../../../lib/builtins/shell/grammar/spec-helpers';
import { dynamicWord, literalWord, tildeWord } from '../../../lib/builtins/shell/shell-word';

const words = (...texts: string[]) => texts.map(literalWord);
const grammar = (name: string) => programGrammar(name)!;
const verdict = (name: string, ...texts: string[]) => readOnlyVerdict(grammar(name), words(...texts));

describe('getopt_long spellings', () => {
  it('an exact long name wins over the names it prefixes; a prefix of one option resolves to it', () => {
    const sort = grammar('sort');
    expect(resolveLong(sort, 'sort')).toMatchObject({ name: 'sort' });
    expect(resolveLong(sort, 'comp')).toMatchObject({ name: 'compress-program' });
    expect(resolveLong(sort, 'o')).toMatchObject({ name: 'output' });
    expect(resolveLong(sort, 'r')).toBe('ambiguous');
    expect(resolveLong(sort, 'nonesuch')).toBeUndefined();
  });

  it('aliases of one option are no ambiguity (--color and --colour)', () => {
    expect(resolveLong(grammar('grep'), 'colo')).toMatchObject({ name: 'color' });
  });

  it('values: glued, separate, optional only glued, none refused', () => {
    expect(parseWords(grammar('sort'), words('-ofile')).items[0]).toMatchObject({ kind: 'option', spelled: '-o', value: { text: 'file' } });
    expect(parseWords(grammar('sort'), words('-o', 'file')).items[0]).toMatchObject({ value: { text: 'file' } });
    expect(parseWords(grammar('sort'), words('--output=file')).items[0]).toMatchObject({ spelled: '--output', value: { text: 'file' } });
    const ls = parseWords(grammar('ls'), words('--color', 'x'));
    expect(ls.items).toMatchObject([{ kind: 'option', value: undefined }, { kind: 'operand', word: { text: 'x' } }]);
    expect(parseWords(grammar('ls'), words('--all=x')).problem).toMatch(/takes no value/);
    expect(parseWords(grammar('sort'), words('-o')).problem).toMatch(/needs a value/);
    expect(parseWords(grammar('sort'), words('--output')).problem).toMatch(/needs a value/);
    expect(parseWords(grammar('diff'), words('-U3', 'a', 'b')).problem).toBeUndefined();
  });

  it('clusters stop at a letter that takes a value; an unknown letter is a problem', () => {
    expect(parseWords(grammar('sort'), words('-rno/x')).items.map((i) => (i.kind === 'option' ? i.spelled : ''))).toEqual(['-r', '-n', '-o']);
    expect(parseWords(grammar('sort'), words('-rQ')).problem).toMatch(/-Q is not an option/);
    expect(parseWords(grammar('sort'), words('--bogus')).problem).toMatch(/--bogus is not an option/);
  });

  it('-- ends the options; options may follow operands unless the grammar is in order', () => {
    expect(parseWords(grammar('sort'), words('--', '-o')).items[0]).toMatchObject({ kind: 'operand', word: { text: '-o' } });
    expect(parseWords(grammar('sort'), words('in', '-o', 'x')).items[1]).toMatchObject({ kind: 'option', spelled: '-o' });
    const timeout = WRAPPER_GRAMMARS.find((w) => w.name === 'timeout')!;
    expect(parseWords(timeout, words('5', '-s', 'x')).commandAt).toBe(1);
    expect(parseWords(grammar('cat'), words('-')).items[0]).toMatchObject({ kind: 'operand' });
  });

  it('numeric options where the program takes them', () => {
    expect(verdict('head', '-5', 'x').readOnly).toBe(true);
    expect(verdict('cat', '-5', 'x').readOnly).toBe(false);
  });

  it('surplus operands', () => {
    expect(verdict('whoami', 'x').reason).toMatch(/beyond/);
    expect(verdict('comm', 'a', 'b').readOnly).toBe(true);
    expect(verdict('comm', 'a', 'b', 'c').readOnly).toBe(false);
  });
});

describe('git parse-options', () => {
  it('--no-<name> negates a long option, by any prefix; an exact name wins', () => {
    const diff = grammar('git').subcommands!.find((s) => s.name === 'diff')!;
    expect(resolveLong(diff, 'no-textconv')).toMatchObject({ name: 'textconv', negated: true });
    expect(resolveLong(diff, 'no-textc')).toMatchObject({ name: 'textconv', negated: true });
    expect(resolveLong(diff, 'no-text')).toMatchObject({ name: 'text', negated: true });
    expect(parseWords(diff, words('--no-textconv=x')).problem).toMatch(/takes no value/);
  });

  it('global options, subcommands, and what a subcommand requires', () => {
    expect(verdict('git').readOnly).toBe(true);
    expect(verdict('git', '-C', 'x', 'status').readOnly).toBe(true);
    expect(verdict('git', '-c', 'a=b', 'status').readOnly).toBe(false);
    expect(verdict('git', 'push').reason).toMatch(/not a subcommand/);
    expect(verdict('git', 'config', '--get', 'a').readOnly).toBe(true);
    expect(verdict('git', 'config', 'a').reason).toMatch(/needs one of/);
    expect(verdict('git', 'diff').reason).toMatch(/needs --no-textconv and --no-ext-diff/);
    expect(verdict('git', 'branch', 'x').reason).toMatch(/--list/);
    expect(verdict('git', 'remote').readOnly).toBe(true);
    expect(verdict('git', 'remote', 'add', 'x', 'y').readOnly).toBe(false);
  });

  it('a value taken from the next word that spells an option that writes is not trusted', () => {
    expect(verdict('git', 'log', '--author', '--output=x').reason).toMatch(/may be read as an option/);
    expect(verdict('git', 'log', '--author', '--oneline').readOnly).toBe(true);
    expect(verdict('git', 'log', '--author', '-').readOnly).toBe(true);
    expect(verdict('git', 'log', '--author', '--bogus').readOnly).toBe(true);
  });
});

describe('find', () => {
  it('primaries are exact, values counted, operators harmless, and nothing follows the expression', () => {
    expect(verdict('find', '.', '(', '-name', 'x', '-o', '!', '-type', 'd', ')', '-print').readOnly).toBe(true);
    expect(verdict('find', '.', '-nam', 'x').reason).toMatch(/not a find primary/);
    expect(verdict('find', '.', '-name').reason).toMatch(/needs a value/);
    expect(verdict('find', '.', '-name', 'x', 'y').reason).toMatch(/follows find's expression/);
    expect(verdict('find', '.', '-exec', 'rm', '{}', ';').readOnly).toBe(false);
    expect(verdict('find', '-L', '.', '-maxdepth', '2').readOnly).toBe(true);
  });
});

describe('words known only at run time', () => {
  it('only a program all of whose options and operands are harmless may take one', () => {
    expect(everyOptionHarmless(grammar('ls'))).toBe(true);
    expect(everyOptionHarmless(grammar('wc'))).toBe(true);
    expect(everyOptionHarmless(grammar('wc'), false)).toBe(false);
    expect(everyOptionHarmless(grammar('sort'))).toBe(false);
    expect(everyOptionHarmless(grammar('uniq'))).toBe(false);
    expect(everyOptionHarmless(grammar('date'))).toBe(false);
    expect(everyOptionHarmless(grammar('git'))).toBe(false);
    expect(readOnlyVerdict(grammar('ls'), [dynamicWord('$X', true), literalWord('--bogus')]).readOnly).toBe(true);
    expect(readOnlyVerdict(grammar('sort'), [dynamicWord('$X', true)]).reason).toMatch(/known only when it runs/);
    expect(readOnlyVerdict(grammar('uniq'), [tildeWord('~/in')]).readOnly).toBe(true);
  });

  it('echo takes every word as an operand', () => {
    expect(readOnlyVerdict(grammar('echo'), words('-n', '--output=x', '-e')).readOnly).toBe(true);
  });
});

describe('the data', () => {
  const all: ProgramGrammar[] = [...READ_ONLY_PROGRAMS, ...READ_ONLY_PROGRAMS.flatMap((g) => g.subcommands ?? []), ...WRAPPER_GRAMMARS];

  it('every entry names its manual page and version, and is frozen', () => {
    for (const g of READ_ONLY_PROGRAMS) {
      expect(g.source).toMatch(/\(\d\)/);
      expect(Object.isFrozen(g)).toBe(true);
      expect(Object.isFrozen(g.options)).toBe(true);
    }
  });

  it('no two options of a grammar share a spelling, and only the last operand repeats', () => {
    for (const g of all) {
      const spellings = g.options.flatMap((o) => [...o.short.map((c) => `-${c}`), ...o.long.map((l) => `--${l}`)]);
      const duplicates = spellings.filter((s, k) => spellings.indexOf(s) !== k && !(g.name === 'grep' && s === '-h'));
      expect({ name: g.name, duplicates }).toEqual({ name: g.name, duplicates: [] });
      expect(g.operands.slice(0, -1).some((o) => o.repeat === true)).toBe(false);
    }
  });

  it('every option that does more than read says why', () => {
    for (const g of all) for (const o of g.options) if (o.effect !== 'read-only' && o.effect !== 'reads-file') expect(o.note).toBeDefined();
  });

  it('the table helpers build frozen entries', () => {
    expect(Object.isFrozen(opt('a', ['all']))).toBe(true);
    expect(operand('X', 'read', true, '+')).toEqual({ name: 'X', kind: 'read', repeat: true, startsWith: '+' });
    expect(programGrammar('egrep')).toBe(grammar('grep'));
    expect(programGrammar('nonesuch')).toBeUndefined();
  });
});

describe('a glob that may expand to an option naming a file', () => {
  it.each(['wc *.env', 'du *', 'wc ?x', 'wc [-]x', 'wc {-,x}y', 'wc "$F"'])('%j is not read-only: the glob may become --files0-from=.env', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(false);
  });

  it.each(['wc src/*.ts', 'wc ./*.env', 'du -sh ./*', 'cat *.env', 'ls *'])('%j stays read-only: its words cannot become an option that names a file', async (command) => {
    expect(isReadOnlyCommand(await analyzeCommand(command))).toBe(true);
  });
});
