import { join } from 'node:path';
import matter from 'gray-matter';
import { InvalidSkillError, SkillDiscoveryError, Skills } from '../../lib/skills';
import { DEFAULT_SKILL_LIMITS } from '../../lib/skills/limits';
import { parseSkillDocument } from '../../lib/skills/front-matter';
import { cleanup, skillText, tempDir, writeSkill } from './helpers';

afterEach(cleanup);

const FILE = '/skills/demo/SKILL.md';
const parse = (text: string, limits = DEFAULT_SKILL_LIMITS) => parseSkillDocument(FILE, text, limits);
const refusal = (text: string, limits = DEFAULT_SKILL_LIMITS): InvalidSkillError => {
  try {
    parse(text, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSkillError);
    return error as InvalidSkillError;
  }
  throw new Error('expected a refusal');
};

describe('SKILL.md front matter', () => {
  it('splits YAML front matter from the trimmed Markdown body', () => {
    const doc = parse('---\nname: demo\ndescription: A demo.\n---\n\n# Demo\nDo it.\n\n');
    expect(doc.data).toEqual({ name: 'demo', description: 'A demo.' });
    expect(doc.body).toBe('# Demo\nDo it.');
  });

  it('accepts CRLF line ends and a byte-order mark', () => {
    const doc = parse('\uFEFF---\r\nname: demo\r\ndescription: A demo.\r\n---\r\nBody\r\n');
    expect(doc.data).toEqual({ name: 'demo', description: 'A demo.' });
    expect(doc.body).toBe('Body');
  });

  it('keeps YAML scalars that are not mappings as they are, for the manifest rules to refuse', () => {
    expect(parse('---\n- a\n- b\n---\nBody').data).toEqual(['a', 'b']);
    expect(parse('---\n~\n---\nBody').data).toBeNull();
    expect(parse('---\n# only a comment\n---\nBody').data).toEqual({});
  });

  it('never runs a ---js block: the file is refused and the code has no effect', () => {
    const marker = `__skill_js_ran_${Date.now()}`;
    const text = `---js\n{ name: (globalThis["${marker}"] = true, "demo"), description: "x" }\n---\nBody`;
    const error = refusal(text);
    expect(error.rule).toBe('front-matter');
    expect(error.message).toContain(FILE);
    expect(error.message).toContain('YAML only');
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    // The danger is real: gray-matter with its default engines evaluates the same block.
    matter(text, {});
    expect((globalThis as Record<string, unknown>)[marker]).toBe(true);
    delete (globalThis as Record<string, unknown>)[marker];
  });

  it.each(['---javascript', '---json', '--- coffee', '---yaml'])('refuses an opening line %j that declares a language', (open) => {
    expect(refusal(`${open}\nname: demo\n---\nBody`).rule).toBe('front-matter');
  });

  it('refuses a file without front matter at the very start', () => {
    const error = refusal('# Demo\n---\nname: demo\n---\n');
    expect(error.rule).toBe('front-matter');
    expect(error.message).toContain('must start with YAML front matter');
    expect(refusal('---').message).toContain('must start with YAML front matter between two `---` lines');
  });

  it('refuses invalid YAML and duplicate keys, naming the file and the yaml rule', () => {
    expect(refusal('---\nname: [unclosed\n---\nBody').rule).toBe('yaml');
    const duplicate = refusal('---\nname: a\nname: b\n---\nBody');
    expect(duplicate.rule).toBe('yaml');
    expect(duplicate.message).toContain(`Invalid skill file '${FILE}' (rule: yaml)`);
  });

  it('bounds what YAML aliases may expand to (billion laughs)', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      laughs.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const error = refusal(`---\n${laughs.join('\n')}\n---\nBody`);
    expect(error.rule).toBe('yaml');
    expect(error.message).toContain('Excessive alias count');
  });

  it('allows a few aliases, and none when maxYamlAliases is 0', () => {
    const text = '---\nx: &x hello\ny: *x\n---\nBody';
    expect(parse(text).data).toEqual({ x: 'hello', y: 'hello' });
    expect(refusal(text, { ...DEFAULT_SKILL_LIMITS, maxYamlAliases: 0 }).rule).toBe('yaml');
  });

  it('refuses front matter over the size limit', () => {
    const text = `---\nname: demo\ndescription: ${'x'.repeat(200)}\n---\nBody`;
    const error = refusal(text, { ...DEFAULT_SKILL_LIMITS, maxFrontMatterChars: 100 });
    expect(error.rule).toBe('front-matter-size');
    expect(error.message).toContain('limit of 100');
  });

  it('uses the YAML core schema: dates stay strings and custom tags never construct objects', () => {
    const doc = parse('---\nwhen: 2024-01-01\nf: !!js/function "function () { return 1 }"\n---\nBody');
    expect(doc.data).toEqual({ when: '2024-01-01', f: 'function () { return 1 }' });
  });

  it('keeps a __proto__ key as plain data, without touching prototypes', () => {
    const doc = parse('---\n__proto__:\n  polluted: yes\n---\nBody');
    expect(Object.prototype.hasOwnProperty.call(doc.data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('through discovery: a ---js skill is refused as invalid and the registry is not built', async () => {
    const root = tempDir();
    writeSkill(root, 'good');
    writeSkill(root, 'evil', skillText('evil').replace(/^---\n/, '---js\n'));
    const error = await Skills.fromLocalDir(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillDiscoveryError);
    const [problem] = (error as SkillDiscoveryError).problems;
    expect(problem).toBeInstanceOf(InvalidSkillError);
    expect((problem as InvalidSkillError).file).toBe(join(root, 'evil', 'SKILL.md'));
  });
});
