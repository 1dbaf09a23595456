import { cutText } from '../text/cut-text';
import { parseAllowedTools } from './allow-rules';
import { InvalidSkillError } from './errors';

/**
 * The validated front matter of a SKILL.md (the Agent Skills convention: `name`, `description`, and the optional
 * `license`, `compatibility`, `metadata`, `allowed-tools`). Frozen.
 */
export interface SkillManifest {
  /** 1-64 lowercase ASCII letters, digits and single hyphens, equal to the skill's folder name. */
  readonly name: string;
  /** What the skill does and when to use it: 1-1024 characters, shown in the prompt listing. */
  readonly description: string;
  /** Licence name or reference, when given. */
  readonly license?: string;
  /** Environment requirements (at most 500 characters), when given. */
  readonly compatibility?: string;
  /** Free string-to-string metadata (`metadata:` in the front matter); empty when absent. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * The permission rules the skill asks for (`allowed-tools:`, a YAML list of rule strings or one string of rules
   * separated by blanks or commas, where parentheses group: `Bash(git add:*) Read`), as rule strings; empty when
   * absent. Never applied by this library: see `skillAllowRules`.
   */
  readonly allowedTools: readonly string[];
}

/** Longest accepted `name`, in characters. */
export const MAX_SKILL_NAME_LENGTH = 64;
/** Longest accepted `description`, in characters. */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;
/** Longest accepted `compatibility`, in characters. */
export const MAX_SKILL_COMPATIBILITY_LENGTH = 500;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/** True when `name` is an allowed skill name: 1-64 of `a-z`, `0-9` and `-`, no leading, trailing or double hyphen. */
export function isValidSkillName(name: string): boolean {
  return name.length <= MAX_SKILL_NAME_LENGTH && NAME.test(name);
}

/**
 * Checks parsed front matter against the SKILL.md rules (docs/skills.md) and returns the frozen manifest.
 *
 * @param file - absolute path of the SKILL.md, named in every error.
 * @param folder - the name of the skill's folder, which `name` must equal.
 * @param data - what the YAML front matter parsed to.
 * @throws InvalidSkillError naming the file and the rule: `mapping`, `unknown-field`, `name`, `name-folder`,
 *   `description`, `license`, `compatibility`, `metadata` or `allowed-tools`.
 */
export function validateManifest(file: string, folder: string, data: unknown): SkillManifest {
  const fail = (rule: ConstructorParameters<typeof InvalidSkillError>[1], detail: string): never => {
    throw new InvalidSkillError(file, rule, detail);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const kind = data === null ? 'null' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return fail('mapping', `the front matter must be a YAML mapping of fields, but it is ${kind}.`);
  }
  const fields = data as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) {
    fail('unknown-field', `unknown field(s) ${unknown.map((k) => `'${k}'`).join(', ')}; allowed: ` +
      `${[...FIELDS].join(', ')}. Put extra information under 'metadata'.`);
  }
  const { name, description, license, compatibility } = fields;
  if (typeof name !== 'string' || !isValidSkillName(name)) {
    fail('name', `'name' must be 1-${MAX_SKILL_NAME_LENGTH} lowercase letters, digits and hyphens, without a ` +
      `leading, trailing or double hyphen (got ${describe(name)}).`);
  }
  if (name !== folder) {
    fail('name-folder', `'name' is '${String(name)}' but the folder is '${folder}'; they must be equal.`);
  }
  if (typeof description !== 'string' || description.trim() === '') {
    fail('description', `'description' is required: a non-empty string saying what the skill does and when to use it.`);
  } else if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    fail('description', `'description' has ${description.length} characters, more than ${MAX_SKILL_DESCRIPTION_LENGTH}.`);
  }
  if (license !== undefined && typeof license !== 'string') {
    fail('license', `'license' must be a string (got ${describe(license)}).`);
  }
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > MAX_SKILL_COMPATIBILITY_LENGTH)) {
    fail('compatibility', `'compatibility' must be a string of at most ${MAX_SKILL_COMPATIBILITY_LENGTH} characters ` +
      `(got ${describe(compatibility)}).`);
  }
  const manifest: SkillManifest = {
    name: name as string,
    description: (description as string).trim(),
    ...(license !== undefined ? { license: license as string } : {}),
    ...(compatibility !== undefined ? { compatibility: compatibility as string } : {}),
    metadata: readMetadata(fields.metadata, fail),
    allowedTools: readAllowedTools(fields['allowed-tools'], fail, name as string),
  };
  return Object.freeze(manifest);
}

type Fail = (rule: 'metadata' | 'allowed-tools', detail: string) => never;

function readMetadata(value: unknown, fail: Fail): Readonly<Record<string, string>> {
  if (value === undefined) return Object.freeze({});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('metadata', `'metadata' must be a mapping of string keys to string values (got ${describe(value)}).`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const bad = entries.find(([, v]) => typeof v !== 'string');
  if (bad) {
    fail('metadata', `'metadata.${cutText(bad[0], 40)}' must be a string (got ${describe(bad[1])}); quote it in the YAML.`);
  }
  return Object.freeze(Object.fromEntries(entries) as Record<string, string>);
}

function readAllowedTools(value: unknown, fail: Fail, skill: string): readonly string[] {
  const parsed = parseAllowedTools(value);
  if ('problem' in parsed) {
    return fail('allowed-tools', `skill '${skill}': ${parsed.problem}. Write rules like \`Read\` or \`Bash(git add:*)\`.`);
  }
  return Object.freeze([...parsed]);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(cutText(value, 43));
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value === 'object' ? 'a mapping' : `${typeof value} ${String(value)}`;
}
