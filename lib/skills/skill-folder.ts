import { createHash } from 'node:crypto';
import { type Stats, lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { type FolderHandleSync, type FolderView, openFolderSync } from '../fs/directory-handle';
import { ConfinedFsError, describeKind, errnoOf } from '../fs/errors';
import { MAX_LINKS } from '../fs/locate';
import { isWithin } from '../fs/path-within';
import { readBoundedSync } from '../fs/read-bounded';
import { InvalidSkillError, SkillChangedError, SkillError, SkillOutsideRootError, SkillReadError } from './errors';
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
  /** Where the folder really is (links resolved), as the kernel reported it for the opened folder. */
  readonly realDirectory: string;
  /** sha1 of the folder's real path and the SKILL.md text: two reads are the same skill when it is equal. */
  readonly hash: string;
}

/** How the folder entry looked in its root's listing. */
export type FolderKind = 'directory' | 'link' | 'other';

/** Why a folder is not (or no longer) a skill: its SKILL.md is missing, a dangling link, not a regular file... */
export class NotASkill {
  /** @param reason - a phrase such as "its SKILL.md is gone", completed by the caller. */
  constructor(readonly reason: string) {}
}

/**
 * Opens the skill folder `<root>/<name>` and checks where the opened folder really is. The folder may be a symbolic
 * link to another folder strictly inside `root` (the kernel follows it; the descriptor's real path is judged, so a
 * swap before or after the check cannot redirect later reads, which all go through the opened folder).
 *
 * The caller closes the returned folder.
 *
 * @returns the opened folder, or {@link NotASkill} when there is no folder (missing, a file, a dangling link, not
 *   searchable) or it leads outside `root` without holding a SKILL.md.
 * @throws SkillOutsideRootError when it leads outside `root` (or to `root` itself) and holds a SKILL.md there;
 *   SkillChangedError when it was replaced while being opened; SkillReadError for any other refusal of the system.
 */
export function openSkillFolder(root: string, name: string): FolderHandleSync | NotASkill {
  const directory = join(root, name);
  let folder: FolderHandleSync;
  try {
    folder = openFolderSync(directory, directory);
  } catch (error) {
    return notAFolder(error) ?? throwSkillError(error, directory);
  }
  if (folder.real !== root && isWithin(root, folder.real)) return folder;
  try {
    const holdsSkill = attempt(() => lstatSync(`${folder.view}/${SKILL_FILE}`, { throwIfNoEntry: false })) !== undefined;
    if (holdsSkill) throw new SkillOutsideRootError(directory, folder.real, root);
    return new NotASkill(`its folder leads to '${folder.real}', outside the skills root, where there is no ${SKILL_FILE}`);
  } finally {
    folder.close();
  }
}

/**
 * Reads and validates the SKILL.md of the opened skill folder `folder` (see {@link openSkillFolder}).
 *
 * The file is looked at through the opened folder only. It may be a symbolic link to a file inside `root`: the link is
 * read, the folder it names is opened (the kernel resolves the path, `..` after links included) and its real path
 * judged, then the name is examined there; at most 40 links. The file itself is opened with `O_NOFOLLOW | O_NONBLOCK`,
 * checked with `fstat` to be a regular file and read to at most `limits.maxFileBytes` bytes, so a file swapped for a
 * link, a FIFO or a device (`/dev/zero`) is refused without blocking or filling memory.
 *
 * Synchronous on purpose: the work is dominated by YAML parsing, which is synchronous anyway, and the few small
 * file-system calls per skill cost several times more as thread-pool round trips.
 *
 * @param root - the real, absolute path of the skills root.
 * @param name - the folder's name (the skill name it must declare).
 * @param folder - the opened skill folder.
 * @returns the skill, or {@link NotASkill} when there is no regular SKILL.md (missing, dangling, a FIFO...).
 * @throws SkillOutsideRootError when SKILL.md is a link that leads out of `root`; InvalidSkillError when it breaks a
 *   rule (`file-size`, `body`, or any rule of the front matter and the manifest); SkillChangedError when it was
 *   swapped while being read; SkillReadError when the system refuses to read it.
 */
export function readSkillFile(root: string, name: string, folder: FolderView, limits: SkillLimits): SkillRead | NotASkill {
  const directory = join(root, name);
  const file = join(directory, SKILL_FILE);
  let dir: FolderView = folder;
  let base = SKILL_FILE;
  let owned: FolderHandleSync | undefined;
  try {
    for (let links = 0; ; links++) {
      const stats = examine(`${dir.view}/${base}`);
      if (stats instanceof NotASkill) return stats;
      if (stats === undefined) return new NotASkill(links === 0 ? `its ${SKILL_FILE} is gone` : `its ${SKILL_FILE} is a dangling link`);
      if (!stats.isSymbolicLink()) {
        if (!stats.isFile()) return new NotASkill(`its ${SKILL_FILE} is ${describeKind(stats)}, not a regular file`);
        break;
      }
      if (links === MAX_LINKS) return new NotASkill(`its ${SKILL_FILE} is a loop of symbolic links`);
      const next = followLink(root, file, dir, base);
      if (next instanceof NotASkill) return next;
      owned?.close();
      owned = next.folder;
      dir = next.folder;
      base = next.name;
    }
    const { bytes } = readBoundedSync(dir, base, file, limits.maxFileBytes);
    return parseSkill(root, name, directory, file, folder.real, bytes, limits);
  } catch (error) {
    if (error instanceof ConfinedFsError && error.code === 'FS_NOT_A_FILE') {
      return new NotASkill(`its ${SKILL_FILE} is ${error.kind!}, not a regular file`);
    }
    if (error instanceof ConfinedFsError && error.code === 'FS_TOO_LARGE') throw tooLarge(file, error.size!, limits);
    if (errnoOf(error) === 'ENOENT') return new NotASkill(`its ${SKILL_FILE} is gone`);
    return throwSkillError(error, file);
  } finally {
    owned?.close();
  }
}

/** Discovery's view of one root entry: the skill it holds, or null when it holds none. @throws SkillError only. */
export function readSkillFolder(root: string, name: string, kind: FolderKind, limits: SkillLimits): SkillRead | null {
  if (kind === 'other') return null;
  const folder = openSkillFolder(root, name);
  if (folder instanceof NotASkill) return null;
  try {
    const read = readSkillFile(root, name, folder, limits);
    return read instanceof NotASkill ? null : read;
  } finally {
    folder.close();
  }
}

/** Follows the link `base` in `dir`: opens the folder its target names and judges where that folder really is. */
function followLink(root: string, file: string, dir: FolderView, base: string): { folder: FolderHandleSync; name: string } | NotASkill {
  const target = readlinkSync(`${dir.view}/${base}`);
  const absolute = isAbsolute(target) ? target : `${dir.real}/${target}`;
  const cut = absolute.lastIndexOf('/');
  const name = absolute.slice(cut + 1);
  if (name === '' || name === '.' || name === '..') return new NotASkill(`its ${SKILL_FILE} is a link to a folder, not a regular file`);
  let folder: FolderHandleSync;
  try {
    folder = openFolderSync(cut === 0 ? '/' : absolute.slice(0, cut), file);
  } catch (error) {
    return notAFolder(error) === undefined ? throwSkillError(error, file) : new NotASkill(`its ${SKILL_FILE} is a dangling link`);
  }
  if (!isWithin(root, folder.real)) {
    folder.close();
    throw new SkillOutsideRootError(file, `${folder.real === '/' ? '' : folder.real}/${name}`, root);
  }
  return { folder, name };
}

function parseSkill(root: string, name: string, directory: string, file: string, realDirectory: string, bytes: Buffer,
  limits: SkillLimits): SkillRead {
  const document = parseSkillDocument(file, bytes.toString('utf8'), limits);
  const manifest = validateManifest(file, name, document.data);
  if (document.body === '') {
    throw new InvalidSkillError(file, 'body', 'the Markdown instructions after the front matter are missing or empty ' +
      "(is the front matter closed by a '---' line?).");
  }
  const skill: Skill = Object.freeze({ ...manifest, directory, file, root });
  const hash = createHash('sha1').update(realDirectory).update('\0').update(bytes).digest('hex');
  return { skill, instructions: document.body, realDirectory, hash };
}

function tooLarge(file: string, size: number, limits: SkillLimits): InvalidSkillError {
  return new InvalidSkillError(file, 'file-size', `the file has ${size} bytes, more than the limit of ` +
    `${limits.maxFileBytes}. Move long material into resource files beside SKILL.md.`);
}

/** A folder that is not there to open: missing, a file or FIFO, a dangling link or loop, or not searchable. */
function notAFolder(error: unknown): NotASkill | undefined {
  const code = errnoOf(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new NotASkill('its folder is gone or no longer a folder');
  if (code === 'ELOOP') return new NotASkill('its folder is a loop of symbolic links');
  if (code === 'EACCES' || code === 'EPERM') return new NotASkill(`its folder cannot be opened (${code})`);
  return undefined;
}

/** Rethrows skill errors, and turns everything else into the documented skill error for it. */
export function throwSkillError(error: unknown, path: string): never {
  if (error instanceof SkillError) throw error;
  if (error instanceof ConfinedFsError && error.code === 'FS_PATH_CHANGED') throw new SkillChangedError(path, error.detail, { cause: error });
  if (errnoOf(error) === 'EINVAL') throw new SkillChangedError(path, 'a symbolic link stopped being one', { cause: error });
  throw new SkillReadError(path, error);
}

/** `lstat`, or undefined when nothing is there, or NotASkill when the folder may not be searched (no `x` bit). */
function examine(path: string): Stats | undefined | NotASkill {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EACCES' || code === 'EPERM') return new NotASkill(`its ${SKILL_FILE} cannot be examined (${code})`);
    throw error;
  }
}

function attempt<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}
