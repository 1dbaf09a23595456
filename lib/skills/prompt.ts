import type { SkillManifest } from './manifest';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes `& < > " '` so text read from a SKILL.md cannot open, close or forge a tag of the listing. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * Renders the compact skill listing for a system prompt: an XML-like `<available_skills>` block with one `<skill>`
 * (name, description) per skill, in the given order, every value escaped with {@link escapeXml}. Only name and
 * description are listed; the full instructions are loaded on demand (progressive loading).
 *
 * @returns the block, or `''` when there are no skills (so nothing is added to the prompt).
 * @example
 * ```ts
 * renderSkillsPrompt([{ name: 'pdf', description: 'Fill <PDF> forms' }]);
 * // <available_skills>
 * //   <skill>
 * //     <name>pdf</name>
 * //     <description>Fill &lt;PDF&gt; forms</description>
 * //   </skill>
 * // </available_skills>
 * ```
 */
export function renderSkillsPrompt(skills: readonly Pick<SkillManifest, 'name' | 'description'>[]): string {
  if (skills.length === 0) return '';
  const items = skills.map(
    (s) => `  <skill>\n    <name>${escapeXml(s.name)}</name>\n    <description>${escapeXml(s.description)}</description>\n  </skill>`,
  );
  return `<available_skills>\n${items.join('\n')}\n</available_skills>`;
}
