import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Action, ToolEffect, Tools, type Tool } from '../../lib';
import { pathRule } from '../../lib/permissions';

const Path = Type.Object({ path: Type.String() });

/**
 * Tools whose calls are about one path. `write` declares a write and no approval: its own verdict is PASSTHROUGH,
 * so allow rules decide whether it runs (what the attacks on allow rules need). `read` is read-only.
 */
export class PathTools {
  @Action('Write a file.', { params: Path, effects: [ToolEffect.WRITES_WORKSPACE], permissions: pathRule('path') })
  write(): string {
    return 'written';
  }

  @Action('Read a file.', { params: Path, effects: [ToolEffect.READS_WORKSPACE], permissions: pathRule('path') })
  read(): string {
    return 'read';
  }
}

export const tools = new Tools().register(new PathTools());
export const write: Tool = tools.get('write')!;
export const read: Tool = tools.get('read')!;

/** A fresh real (links resolved) temporary folder. */
export function scratch(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `perm-${prefix}-`)));
}

/** Creates `path` with its folders. */
export function file(path: string, content = 'x'): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
