import type { Readable } from 'node:stream';

interface TarHeader {
  name: string;
  size?: number;
  mode?: number;
  type?: string;
  mtime?: Date;
}
interface TarPack extends Readable {
  entry(header: TarHeader, data: Buffer): void;
  finalize(): void;
}
interface TarExtract extends NodeJS.WritableStream {
  on(event: 'entry', listener: (header: TarHeader, stream: Readable, next: () => void) => void): this;
  on(event: 'finish', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}
interface TarStream {
  pack(): TarPack;
  extract(): TarExtract;
}

/** tar-stream, which dockerode's `tar-fs` depends on (this package does not declare it: it resolves from dockerode's install); loaded with dockerode, when a DockerWorkspace is used. */
function tarStream(): TarStream {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- dependency of the optional peer dockerode
  return require('tar-stream') as TarStream;
}

/** A tar archive holding one regular file `name` (a single path segment) with `data` and permission bits `mode`. */
export async function packOneFile(name: string, data: Uint8Array, mode: number): Promise<Buffer> {
  const pack = tarStream().pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    pack.once('end', resolve);
    pack.once('error', reject);
  });
  pack.entry({ name, mode, type: 'file', mtime: new Date() }, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** What the archive of one path held: its first entry's type and, for a regular file, its bytes. */
export interface UnpackedEntry {
  readonly type: string;
  readonly bytes: Buffer;
  /** True when the entry held more than `limit` bytes (its bytes are then not kept). */
  readonly tooLarge: boolean;
}

/**
 * Reads the first entry of a tar stream (the engine's archive of one path), keeping at most `limit` bytes, and
 * drains the rest. @returns null for an empty archive.
 */
export function unpackFirstEntry(archive: NodeJS.ReadableStream, limit: number): Promise<UnpackedEntry | null> {
  return new Promise((resolve, reject) => {
    const extract = tarStream().extract();
    let first: UnpackedEntry | null = null;
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (first === null && size <= limit) chunks.push(chunk);
      });
      stream.on('end', () => {
        first ??= { type: String(header.type), bytes: size <= limit ? Buffer.concat(chunks) : Buffer.alloc(0), tooLarge: size > limit };
        next();
      });
      stream.resume();
    });
    extract.on('finish', () => resolve(first));
    extract.on('error', reject);
    archive.on('error', reject);
    archive.pipe(extract);
  });
}
