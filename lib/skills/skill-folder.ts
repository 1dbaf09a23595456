import { createHash } from 'node:crypto';
import { type Stats, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { InvalidSkillError, SkillOutsideRootError } from './errors';
import { parseSkillDocument } from './front-matter';
import type { SkillLimits } from './limits';
import { type SkillManifest, validateManifest } from './manifest';

/** The file every skill folder holds. */
export const SKILL_FILE = 'SKILL.md';

/** A discovered skill: its validated manifest and where it lives. Frozen. */
export interface Skill extends SkillManifest {
  /** Absolute path of the skill's folder under its root (`<root>/<name>`), where its resources live. */
  readonly directory: string;
  /** Absolute path of its SKILL.md. */
  readonly file: string;
  /** Absolute real path of the skills root it was found in. */
  readonly root: string;
}

/** A skill folder read from disk: the skill, its Markdown instructions, and a hash of what defines it. */
export interface SkillRead {
  readonly skill: Skill;
  readonly instructions: string;
  /** Where the folder really is (links resolved), for listing resources. */
  readonly realDirectory: string;
  /** sha1 of the folder's real path and the SKILL.md text: two reads are the same skill when it is equal. */
  readonly hash: string;
}

/** How the folder entry looked in its root's listing. */
export type FolderKind = 'directory' | 'link' | 'other';

/** True when `path` is strictly inside `root` (both real, absolute paths). */
export function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Reads and validates the skill in folder `<root>/<name>`.
 *
 * The folder and its SKILL.md may be links, but only to somewhere inside `root`; a folder without a SKILL.md (or whose
 * link is dangling) is not a skill and yields `null`. The file is sized before it is read.
 *
 * Synchronous on purpose: the work is dominated by YAML parsing, which is synchronous anyway, and the five small
 * file-system calls per skill cost several times more as thread-pool round trips (1,000 skills, measured on a busy
 * 2-core machine: 10-20 ms of synchronous calls against 60-190 ms with fs callbacks or fs/promises).
 *
 * @param root - the real, absolute path of the skills root.
 * @param name - the folder's name (the skill name it must declare).
 * @param kind - what the root's listing said the entry is.
 * @returns the skill, or `null` when the folder holds no SKILL.md file.
 * @throws SkillOutsideRootError when the folder or SKILL.md leads out of `root`; InvalidSkillError when SKILL.md breaks
 *   a rule (rule `file-size`, `body`, or any rule of the front matter and the manifest).
 */
export function readSkillFolder(root: string, name: string, kind: FolderKind, limits: SkillLimits): SkillRead | null {
  if (kind === 'other') return null;
  const directory = join(root, name);
  const realDirectory = kind === 'link' ? orNull(() => realpathSync(directory)) : directory;
  if (realDirectory === null) return null;
  const file = join(directory, SKILL_FILE);
  const link = orNull(() => lstatSync(file));
  if (link === null) return null;
  const realFile = link.isSymbolicLink() ? orNull(() => realpathSync(file)) : join(realDirectory, SKILL_FILE);
  if (realFile === null) return null;
  const info: Stats | null = link.isSymbolicLink() ? orNull(() => statSync(realFile)) : link;
  if (info === null || !info.isFile()) return null;
  if (!isInside(root, realDirectory)) throw new SkillOutsideRootError(directory, realDirectory, root);
  if (!isInside(root, realFile)) throw new SkillOutsideRootError(file, realFile, root);

  const tooLarge = (size: number) =>
    new InvalidSkillError(file, 'file-size', `the file has ${size} bytes, more than the limit of ` +
      `${limits.maxFileBytes}. Move long material into resource files beside SKILL.md.`);
  if (info.size > limits.maxFileBytes) throw tooLarge(info.size);
  const bytes = readFileSync(realFile);
  if (bytes.length > limits.maxFileBytes) throw tooLarge(bytes.length);
  const text = bytes.toString('utf8');

  const document = parseSkillDocument(file, text, limits);
  const manifest = validateManifest(file, name, document.data);
  if (document.body === '') {
    throw new InvalidSkillError(file, 'body', 'the Markdown instructions after the front matter are missing or empty ' +
      "(is the front matter closed by a '---' line?).");
  }
  const skill: Skill = Object.freeze({ ...manifest, directory, file, root });
  const hash = createHash('sha1').update(realDirectory).update('\0').update(bytes).digest('hex');
  return { skill, instructions: document.body, realDirectory, hash };
}

/** Reads the kind of `<root>/<name>` with one `lstat`, for callers that have no directory listing at hand. */
export function folderKind(root: string, name: string): FolderKind {
  const info = orNull(() => lstatSync(join(root, name)));
  if (info === null) return 'other';
  return info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'directory' : 'other';
}

/** The result of a file-system call, or null when it fails (missing, dangling link, not a folder, no access). */
function orNull<T>(call: () => T): T | null {
  try {
    return call();
  } catch {
    return null;
  }
}
