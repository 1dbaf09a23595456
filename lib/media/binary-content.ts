import { constants } from 'node:buffer';
import { CoreError } from '../errors';
import { detectMediaType, isMediaType, OCTET_STREAM } from './media-type';

/** Bytes as a tool may return them: a `Uint8Array` (a Node `Buffer` is one), another typed array or view, an `ArrayBuffer`. */
export type Bytes = Uint8Array | ArrayBufferView | ArrayBuffer;

/** The JSON form of binary content: what a model reads where a provider has no native channel for it. */
export interface BinaryJson {
  type: 'binary';
  mediaType: string;
  name?: string;
  /** The bytes, base64-encoded (RFC 4648 §4). */
  data: string;
}

const BRAND = Symbol.for('agenttoolkit.BinaryContent');

/**
 * Binary output of a tool (an image, a PDF, audio, any file): base64 data with its media type and an optional file
 * name. Built by `ActionResult.image(...)` and `ActionResult.file(...)`, or from bytes a tool returns as they are;
 * provider result builders send it as each provider's native image, document, audio or file content, and as base64
 * JSON ({@link BinaryJson}) where a provider has none. Frozen.
 */
export class BinaryContent {
  /** The media type (`image/png`): declared, or detected from the leading bytes, else `application/octet-stream`. */
  readonly mediaType: string;
  /** The bytes, base64-encoded (RFC 4648 §4). */
  readonly data: string;
  /** A file name for providers that show one (an Anthropic document title, an OpenAI `filename`). */
  readonly name: string | undefined;
  /** The number of bytes. */
  readonly byteLength: number;

  private constructor(data: string, byteLength: number, mediaType: string, name: string | undefined) {
    this.data = data;
    this.byteLength = byteLength;
    this.mediaType = mediaType;
    this.name = name;
    Object.freeze(this);
  }

  /**
   * Binary content from bytes (copied and encoded at once, so later changes to the buffer do not reach the model).
   *
   * @param bytes - the bytes.
   * @param mediaType - the media type; default: detected from the leading bytes (see `detectMediaType`), else
   *   `application/octet-stream`. A declared PNG, JPEG, GIF or WebP type is checked against the bytes: another of
   *   these signatures wins, `image/jpg` is written `image/jpeg`.
   * @param name - an optional file name.
   * @throws CoreError `INVALID_RESULT` when `mediaType` is not a `type/subtype` media type of at most 255 characters,
   *   is a PNG, JPEG, GIF or WebP type the bytes do not start with, when the bytes are detached, or when their base64
   *   text would not fit in one string.
   */
  static from(bytes: Bytes, mediaType?: string, name?: string): BinaryContent {
    const view = asUint8Array(bytes);
    if (mediaType !== undefined && !isMediaType(mediaType)) {
      throw new CoreError('INVALID_RESULT', `'${String(mediaType).slice(0, 100)}' is not a media type; pass one such as 'image/png' or 'application/pdf'.`);
    }
    const type = mediaType === undefined ? (detectMediaType(view) ?? OCTET_STREAM) : checkedImageType(mediaType, view);
    if (view.byteLength > MAX_BYTES) {
      throw new CoreError('INVALID_RESULT', `Binary content of ${view.byteLength} bytes is over the ${MAX_BYTES} bytes whose base64 text fits in one string.`);
    }
    return new BinaryContent(Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64'), view.byteLength, type, name);
  }

  /** The media type without parameters, lower-case (`text/plain` for `text/plain; charset=utf-8`). */
  get essence(): string {
    return this.mediaType.split(';', 1)[0]!.trim();
  }

  /** The bytes, decoded. */
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.from(this.data, 'base64'));
  }

  /** A `data:` URL (RFC 2397) of the content, as OpenAI takes images and files. */
  toDataUrl(): string {
    return `data:${this.essence};base64,${this.data}`;
  }

  /** Plain JSON form: `{"type": "binary", "mediaType", "name"?, "data": base64}`, never a list of numbers. */
  toJSON(): BinaryJson {
    return this.name === undefined ? { type: 'binary', mediaType: this.mediaType, data: this.data } : { type: 'binary', mediaType: this.mediaType, name: this.name, data: this.data };
  }
}

Object.defineProperty(BinaryContent.prototype, BRAND, { value: true });

/** The most bytes whose base64 text fits in one JavaScript string (`buffer.constants.MAX_STRING_LENGTH` characters). */
const MAX_BYTES = Math.floor(constants.MAX_STRING_LENGTH / 4) * 3;

/** The image types every provider's image channel takes, each recognised from its signature by `detectMediaType`. */
const WEB_IMAGES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * A declared media type, lower-case, checked against the bytes where they can tell: `image/jpg` is written
 * `image/jpeg`; a PNG, JPEG, GIF or WebP type the bytes contradict with another of these signatures becomes the type
 * the bytes carry (providers check the bytes and refuse the whole request otherwise: "The image was specified using
 * the image/png media type, but the image appears to be a image/jpeg image").
 *
 * @throws CoreError `INVALID_RESULT` when the declared type is one of these four and the bytes carry no image
 *   signature of them (not that image, or cut short).
 */
function checkedImageType(declared: string, view: Uint8Array): string {
  const lower = declared.toLowerCase();
  const [essence = '', ...parameters] = lower.split(';');
  const trimmed = essence.trim();
  const normalized = trimmed === 'image/jpg' || trimmed === 'image/pjpeg' ? ['image/jpeg', ...parameters].join(';') : lower;
  const claimed = normalized.split(';', 1)[0]!.trim();
  if (!WEB_IMAGES.has(claimed)) return normalized;
  const detected = detectMediaType(view);
  if (detected !== undefined && WEB_IMAGES.has(detected)) return detected === claimed ? normalized : detected;
  throw new CoreError('INVALID_RESULT', `The bytes are declared '${declared.slice(0, 100)}', but they do not start with that image's signature (${view.byteLength} bytes, not a complete image): pass the right media type, or ActionResult.file(bytes) to detect it.`);
}

/** True for bytes a tool may return as binary output: a typed array or `DataView` (a `Buffer` too) or an `ArrayBuffer`. */
export function isBytes(value: unknown): value is Bytes {
  return ArrayBuffer.isView(value) || isArrayBuffer(value);
}

/** An `ArrayBuffer` or `SharedArrayBuffer`, from this realm or another (a VM context, a worker's transfer). */
function isArrayBuffer(value: unknown): value is ArrayBuffer {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

/** True for {@link BinaryContent} from this or another copy of the library. */
export function isBinaryContent(value: unknown): value is BinaryContent {
  return value instanceof BinaryContent || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true);
}

/**
 * `value` as binary content when it is readable binary output (bytes or {@link BinaryContent}), else undefined: bytes
 * whose buffer was transferred away (detached), or too many to encode, are not binary output, and never make a result
 * builder throw.
 */
export function toBinaryContent(value: unknown): BinaryContent | undefined {
  if (isBinaryContent(value)) return value;
  if (!isBytes(value) || isDetached(value)) return undefined;
  try {
    return BinaryContent.from(value);
  } catch {
    // Bytes too many for their base64 text to fit in one string: not sendable as binary content.
    return undefined;
  }
}

/**
 * A `Uint8Array` view of `bytes` (no copy).
 * @throws CoreError `INVALID_RESULT` when `bytes` is not bytes, or its buffer was transferred away (detached).
 */
export function asUint8Array(bytes: Bytes): Uint8Array {
  if (!isBytes(bytes)) {
    throw new CoreError('INVALID_RESULT', `Binary content takes a Uint8Array, Buffer, typed array or ArrayBuffer, got ${bytes === null ? 'null' : typeof bytes}.`);
  }
  if (isDetached(bytes)) throw new CoreError('INVALID_RESULT', 'Binary content: the bytes are no longer readable, their ArrayBuffer was transferred (detached). Copy them before transferring the buffer.');
  if (bytes instanceof Uint8Array) return bytes;
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Uint8Array(bytes);
}

/** Whether the buffer under `bytes` was transferred away: a view of a detached buffer cannot even be constructed. */
function isDetached(bytes: Bytes): boolean {
  const buffer = ArrayBuffer.isView(bytes) ? bytes.buffer : bytes;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}
