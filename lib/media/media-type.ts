/**
 * Media types recognised from a file's leading bytes (its "magic number"). Each entry is the byte signature at an
 * offset, from the formats' own specifications: PNG (ISO/IEC 15948, "PNG signature"), JPEG (JFIF SOI marker), GIF (GIF89a spec),
 * WebP and WAV (RIFF containers, RFC 9649 and the RIFF WAVE format), PDF (ISO 32000-1, "File header"), MP3 (ID3v2 tag or an MPEG
 * audio frame header), Ogg (RFC 3533), FLAC, ZIP and gzip (RFC 1952).
 */
const SIGNATURES: ReadonlyArray<{ readonly mediaType: string; readonly parts: ReadonlyArray<readonly [offset: number, bytes: readonly number[]]> }> = [
  { mediaType: 'image/png', parts: [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]] },
  { mediaType: 'image/jpeg', parts: [[0, [0xff, 0xd8, 0xff]]] },
  { mediaType: 'image/gif', parts: [[0, ascii('GIF87a')]] },
  { mediaType: 'image/gif', parts: [[0, ascii('GIF89a')]] },
  { mediaType: 'image/webp', parts: [[0, ascii('RIFF')], [8, ascii('WEBP')]] },
  { mediaType: 'audio/wav', parts: [[0, ascii('RIFF')], [8, ascii('WAVE')]] },
  { mediaType: 'application/pdf', parts: [[0, ascii('%PDF-')]] },
  { mediaType: 'audio/mpeg', parts: [[0, ascii('ID3')]] },
  { mediaType: 'audio/ogg', parts: [[0, ascii('OggS')]] },
  { mediaType: 'audio/flac', parts: [[0, ascii('fLaC')]] },
  { mediaType: 'application/zip', parts: [[0, [0x50, 0x4b, 0x03, 0x04]]] },
  { mediaType: 'application/gzip', parts: [[0, [0x1f, 0x8b]]] },
];

/** The media type of bytes whose format is not recognised. */
export const OCTET_STREAM = 'application/octet-stream';

/**
 * The media type of `bytes` from their leading bytes, or undefined when no signature matches. Recognises PNG, JPEG,
 * GIF, WebP, PDF, WAV, MP3 (an ID3 tag, or a bare MPEG layer III frame header), Ogg, FLAC, ZIP and gzip.
 */
export function detectMediaType(bytes: Uint8Array): string | undefined {
  for (const { mediaType, parts } of SIGNATURES) {
    if (parts.every(([offset, expected]) => expected.every((byte, i) => bytes[offset + i] === byte))) return mediaType;
  }
  // An MP3 without an ID3 tag starts with a frame header: 11 sync bits, then MPEG version and layer III (RFC 3003).
  if (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe6) === 0xe2) return 'audio/mpeg';
  return undefined;
}

/** A media type as RFC 6838 writes one: `type/subtype`, restricted-name characters, parameters allowed after `;`. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/i;

/** The longest media type taken, parameters included (RFC 6838 caps type and subtype at 127 characters each). */
const MAX_MEDIA_TYPE = 255;

/** Whether `value` is a syntactically valid media type (`image/png`, `text/plain; charset=utf-8`) of at most 255 characters. */
export function isMediaType(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_MEDIA_TYPE && MEDIA_TYPE.test(value);
}

/** The usual file extension for a media type (`png` for `image/png`), `bin` when unknown. */
export function extensionOf(mediaType: string): string {
  const essence = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  return EXTENSIONS[essence] ?? 'bin';
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'text/plain': 'txt',
};

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}
