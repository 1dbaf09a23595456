import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { cutText } from '../text/cut-text';
import { InvalidSkillError } from './errors';
import type { SkillLimits } from './limits';

/** A SKILL.md split into its parsed YAML front matter (not yet validated) and its Markdown body. */
export interface SkillDocument {
  /** What the YAML front matter parsed to: anything, checked afterwards by the manifest rules. */
  readonly data: unknown;
  /** The Markdown body after the closing `---`, trimmed. */
  readonly body: string;
}

/** The opening line: exactly `---` (trailing blanks tolerated), so `---js`, `---json` or `--- yaml` are refused. */
const OPENING = /^---[ \t]*\n/;

/**
 * Splits and parses the text of a SKILL.md.
 *
 * gray-matter finds the front-matter block; its engines are replaced so that only the `yaml` package ever parses it:
 * the YAML engine is the `yaml` package with the core schema, unique keys and `maxAliasCount` bounded by `limits`, and
 * the JavaScript and JSON engines (gray-matter runs `---js` blocks with `eval` by default) refuse. A file whose
 * opening line declares a language is refused before gray-matter sees it, so nothing in it is ever evaluated.
 *
 * @param file - absolute path of the SKILL.md, used in error messages.
 * @param text - its content, already bounded by `limits.maxFileBytes`.
 * @throws InvalidSkillError with rule `front-matter` (missing, not YAML), `front-matter-size` or `yaml`.
 */
export function parseSkillDocument(file: string, text: string, limits: SkillLimits): SkillDocument {
  const source = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  if (!OPENING.test(source)) {
    const first = source.split('\n', 1)[0] ?? '';
    const why = first.startsWith('---') && first.trim() !== '---'
      ? `the opening line '${cutText(first, 40)}' declares another language; front matter is YAML only`
      : 'the file must start with YAML front matter between two `---` lines';
    throw new InvalidSkillError(file, 'front-matter', `${why}. Start the file with a line '---'.`);
  }
  const refuse = (language: string) => (): never => {
    throw new InvalidSkillError(file, 'front-matter', `front matter in ${language} is refused; use YAML.`);
  };
  // gray-matter only splits the file: the parsed value is kept here, so a YAML `null` or list is seen as it is.
  let data: unknown = {};
  const yamlEngine = (block: string): object => {
    data = parseFrontMatterYaml(file, block, limits);
    return {};
  };
  const { content } = matter(source, {
    language: 'yaml',
    engines: { yaml: yamlEngine, javascript: refuse('JavaScript'), js: refuse('JavaScript'), json: refuse('JSON') },
  });
  return { data, body: content.trim() };
}

function parseFrontMatterYaml(file: string, block: string, limits: SkillLimits): unknown {
  if (block.length > limits.maxFrontMatterChars) {
    throw new InvalidSkillError(
      file,
      'front-matter-size',
      `the front matter has ${block.length} characters, more than the limit of ${limits.maxFrontMatterChars}. ` +
        'Move long text into the Markdown body.',
    );
  }
  try {
    return parseYaml(block, {
      schema: 'core',
      uniqueKeys: true,
      merge: false,
      maxAliasCount: limits.maxYamlAliases,
      logLevel: 'error',
      prettyErrors: true,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    throw new InvalidSkillError(file, 'yaml', `the front matter is not valid YAML: ${reason}. Fix the YAML.`, {
      cause: error,
    });
  }
}
