import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder (under `parent`, default the system temp folder), removed by `cleanup()` (call it in afterEach). */
export function tempDir(prefix = 'skills-', parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix));
  created.push(dir);
  return dir;
}

const created: string[] = [];

/** Removes every folder made by {@link tempDir}. */
export function cleanup(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The text of a valid SKILL.md for `name`, with optional extra front-matter lines and body. */
export function skillText(name: string, options: { description?: string; extra?: string; body?: string } = {}): string {
  const description = options.description ?? `Does ${name} things. Use when ${name} is needed.`;
  const extra = options.extra ? `${options.extra}\n` : '';
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n${options.body ?? `# ${name}\n\nStep 1: do ${name}.\n`}`;
}

/** Writes `<root>/<folder>/SKILL.md` with `text` (default: a valid skill named after the folder); returns its path. */
export function writeSkill(root: string, folder: string, text: string = skillText(folder)): string {
  mkdirSync(join(root, folder), { recursive: true });
  const file = join(root, folder, 'SKILL.md');
  writeFileSync(file, text);
  return file;
}

/** A logger that records warnings. */
export function recordingLogger(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { warn: (message: string) => void messages.push(message), messages };
}
