import { InvalidSkillError, isValidSkillName } from '../../lib/skills';
import { validateManifest } from '../../lib/skills/manifest';

const FILE = '/skills/pdf-forms/SKILL.md';
const base = { name: 'pdf-forms', description: 'Fill PDF forms. Use for any PDF form.' };
const refusal = (data: unknown, folder = 'pdf-forms'): InvalidSkillError => {
  try {
    validateManifest(FILE, folder, data);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSkillError);
    const invalid = error as InvalidSkillError;
    expect(invalid.code).toBe('SKILL_INVALID');
    expect(invalid.file).toBe(FILE);
    expect(invalid.message).toContain(`'${FILE}'`);
    expect(invalid.message).toContain(`(rule: ${invalid.rule})`);
    return invalid;
  }
  throw new Error('expected a refusal');
};

describe('skill names', () => {
  it.each(['a', 'pdf', 'pdf-forms', 'v2-api-3', 'x'.repeat(64)])('accepts %j', (name) => {
    expect(isValidSkillName(name)).toBe(true);
  });
  it.each(['', 'PDF', '-pdf', 'pdf-', 'pdf--forms', 'pdf_forms', 'pdf forms', 'pdf.forms', 'é', 'x'.repeat(65)])('refuses %j', (name) => {
    expect(isValidSkillName(name)).toBe(false);
  });
});

describe('validateManifest', () => {
  it('returns a frozen manifest with the optional fields', () => {
    const manifest = validateManifest(FILE, 'pdf-forms', {
      ...base,
      license: 'MIT',
      compatibility: 'Needs python3',
      metadata: { author: 'me', version: '1.0' },
      'allowed-tools': ['Bash(python:*)', 'Read'],
    });
    expect(manifest).toEqual({
      ...base,
      license: 'MIT',
      compatibility: 'Needs python3',
      metadata: { author: 'me', version: '1.0' },
      allowedTools: ['Bash(python:*)', 'Read'],
    });
    expect(Object.isFrozen(manifest)).toBe(true);
    expect(Object.isFrozen(manifest.metadata)).toBe(true);
    expect(Object.isFrozen(manifest.allowedTools)).toBe(true);
  });

  it('defaults metadata and allowed-tools to empty and leaves license and compatibility out', () => {
    const manifest = validateManifest(FILE, 'pdf-forms', base);
    expect(manifest).toEqual({ ...base, metadata: {}, allowedTools: [] });
    expect('license' in manifest).toBe(false);
  });

  it('accepts allowed-tools as a space-separated string', () => {
    expect(validateManifest(FILE, 'pdf-forms', { ...base, 'allowed-tools': ' Read  Grep ' }).allowedTools).toEqual(['Read', 'Grep']);
  });

  it.each([
    [null, 'null'],
    [['a'], 'a list'],
    ['text', 'a string'],
    [42, 'a number'],
  ])('refuses front matter that is not a mapping (%j)', (data, kind) => {
    const error = refusal(data);
    expect(error.rule).toBe('mapping');
    expect(error.message).toContain(kind);
  });

  it('refuses unknown fields and says where extra data goes', () => {
    const error = refusal({ ...base, version: '1', model: 'x' });
    expect(error.rule).toBe('unknown-field');
    expect(error.message).toContain("'version', 'model'");
    expect(error.message).toContain("under 'metadata'");
  });

  it.each([undefined, 42, 'Bad_Name', 'a'.repeat(65), '-lead'])('refuses the name %j', (name) => {
    expect(refusal({ ...base, name }).rule).toBe('name');
  });

  it('refuses a name that is not the folder name', () => {
    const error = refusal({ ...base, name: 'pdf' });
    expect(error.rule).toBe('name-folder');
    expect(error.message).toContain("'name' is 'pdf' but the folder is 'pdf-forms'");
  });

  it.each([undefined, '', '   ', 7])('refuses a missing or empty description (%j)', (description) => {
    expect(refusal({ ...base, description }).rule).toBe('description');
  });

  it('accepts a description of 1024 characters and refuses 1025', () => {
    expect(validateManifest(FILE, 'pdf-forms', { ...base, description: 'd'.repeat(1024) }).description).toHaveLength(1024);
    const error = refusal({ ...base, description: 'd'.repeat(1025) });
    expect(error.rule).toBe('description');
    expect(error.message).toContain('1025 characters, more than 1024');
  });

  it('refuses a license that is not a string', () => {
    expect(refusal({ ...base, license: ['MIT'] }).rule).toBe('license');
  });

  it('accepts compatibility of 500 characters and refuses 501 or a non-string', () => {
    expect(validateManifest(FILE, 'pdf-forms', { ...base, compatibility: 'c'.repeat(500) }).compatibility).toHaveLength(500);
    expect(refusal({ ...base, compatibility: 'c'.repeat(501) }).rule).toBe('compatibility');
    expect(refusal({ ...base, compatibility: { os: 'linux' } }).rule).toBe('compatibility');
  });

  it('refuses metadata that is not a string-to-string mapping', () => {
    expect(refusal({ ...base, metadata: ['a'] }).rule).toBe('metadata');
    expect(refusal({ ...base, metadata: null }).rule).toBe('metadata');
    const error = refusal({ ...base, metadata: { version: 1.5 } });
    expect(error.rule).toBe('metadata');
    expect(error.message).toContain("'metadata.version' must be a string (got number 1.5); quote it");
  });

  it('refuses allowed-tools that are not non-empty strings', () => {
    expect(refusal({ ...base, 'allowed-tools': ['Read', ''] }).rule).toBe('allowed-tools');
    expect(refusal({ ...base, 'allowed-tools': ['Read', 3] }).rule).toBe('allowed-tools');
    expect(refusal({ ...base, 'allowed-tools': { Read: true } }).rule).toBe('allowed-tools');
  });

  it('shortens long values in messages', () => {
    const error = refusal({ ...base, name: 'N'.repeat(100) });
    expect(error.message).toContain(`"${'N'.repeat(40)}..."`);
  });
});
