import { CoreError } from './errors';
import { asUint8Array, BinaryContent, isBytes, type Bytes } from './media/binary-content';
import { detectMediaType } from './media/media-type';
import { describeLink, LinkedContent, type ResourceLink, type ResourceLinkInit } from './media/resource-link';

/** The fields of a result, as passed to the {@link ActionResult} constructor. */
export interface ActionResultInit<T> {
  ok: boolean;
  result?: T | undefined;
  error?: string | undefined;
  [extra: string]: unknown;
}

/** Any constructor of results. */
type ResultConstructor = new (init: ActionResultInit<never>, trusted?: typeof TRUSTED) => ActionResult<unknown>;

/** Marks construction from `success`/`fail` without extra fields: the keys are known, so the check is skipped. */
const TRUSTED = Symbol('trusted');
const BASE_FIELDS: ReadonlySet<string> = new Set(['ok', 'result', 'error']);

/**
 * Checks that a result class keeps the extra fields it declares: a subclass that declares one as a plain class field
 * (not `declare readonly`) has it reset to `undefined` by the field initialiser after the base constructor set it.
 *
 * @throws CoreError `INVALID_RESULT` naming the first field that does not survive construction.
 */
export function assertResultClass(type: ActionResultClass): void {
  if (type === (ActionResult as unknown as ActionResultClass)) return;
  const probe: Record<string, unknown> = { ok: true };
  const extras = [...type.fields].filter((field) => !BASE_FIELDS.has(field));
  for (const field of extras) probe[field] = Symbol(field);
  const instance = new type(probe as ActionResultInit<unknown>) as unknown as Record<string, unknown>;
  const lost = extras.find((field) => instance[field] !== probe[field]);
  if (lost !== undefined) {
    throw new CoreError(
      'INVALID_RESULT',
      `${type.name} loses its field '${lost}' on construction: a plain class field resets what the base constructor set. Declare it as \`declare readonly ${lost}\`.`,
    );
  }
}

/**
 * The `error` of a failed result built with a blank one (missing, not a string, empty or only invisible characters). Providers
 * refuse an empty tool result (Anthropic answers a `tool_result` with empty content and `is_error: true` with HTTP
 * 400), and a blank error tells the model nothing.
 */
export const BLANK_FAILURE_TEXT = 'The tool failed without a message.';

/** Only characters a reader cannot see: whitespace, separators, control and format characters (zero-width, BOM). */
const INVISIBLE = /^[\s\p{Z}\p{Cc}\p{Cf}]*$/u;

/**
 * Whether a failure's text is blank: missing, not a string, or only characters a reader cannot see (whitespace,
 * control characters, zero-width and other format characters such as U+200B or a byte order mark).
 */
export function isBlankError(error: unknown): boolean {
  if (typeof error !== 'string') return true;
  // A printable ASCII character first or last (the usual message) is visible: no scan of the whole text.
  return !(isPrintableAscii(error.charCodeAt(0)) || isPrintableAscii(error.charCodeAt(error.length - 1))) && INVISIBLE.test(error);
}

/** `!` to `~`: none of them is whitespace, a separator, a control or a format character. */
function isPrintableAscii(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/**
 * Marks results on their prototype with a registered symbol, so a result made by another copy of this library (two
 * versions in one dependency tree) is still recognised as a result, not wrapped as a successful value.
 */
const RESULT_BRAND = Symbol.for('agenttoolkit.ActionResult');

/** True for an `ActionResult` of this or any other copy of the library. */
export function isActionResult(value: unknown): value is ActionResult<unknown> {
  return value instanceof ActionResult || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESULT_BRAND] === true);
}

/** A class producing results: `ActionResult` itself or a subclass with extra fields. */
export type ActionResultClass<R extends ActionResult<unknown> = ActionResult<unknown>> = (new (init: ActionResultInit<unknown>) => R) &
  Pick<typeof ActionResult, 'fields' | 'extendFields' | 'success' | 'fail' | 'image' | 'file'>;

/**
 * The outcome of a tool call, handed back to the model as-is.
 *
 * Read-only and closed: every field is `readonly` in the type (a changed result is a copy made with {@link with}),
 * and a field the class does not declare is rejected with an `INVALID_RESULT` {@link CoreError}. Instances are not
 * frozen at run time (`Object.freeze` costs about as much as validating a call's arguments): the pipeline builds a
 * result for each call and keeps none, so only a tool that returns the same instance twice shares one.
 *
 * Applications needing more fields (a trace id, citations) subclass it, declare the fields with `declare readonly`
 * (a plain field declaration would reset the value the base constructor set) and list them in a static `fields`
 * set, then pass the subclass as `new Tools({ resultType })`: every result the pipeline builds, failures included,
 * is then an instance of it.
 *
 * @example
 * ```ts
 * class TracedResult<T = unknown> extends ActionResult<T> {
 *   static override readonly fields = ActionResult.extendFields('traceId');
 *   declare readonly traceId?: string;
 * }
 * ```
 */
export class ActionResult<T = unknown> {
  /** The field names instances may carry. Subclasses replace it with {@link ActionResult.extendFields}. */
  static readonly fields: ReadonlySet<string> = BASE_FIELDS;

  /** True when the call succeeded. */
  declare readonly ok: boolean;
  /** The tool's return value (success only). */
  declare readonly result?: T;
  /**
   * What went wrong, written for the model (failure only). Never blank: a failure built without text, or with an empty
   * or whitespace-only one, carries {@link BLANK_FAILURE_TEXT} instead.
   */
  declare readonly error?: string;

  /**
   * @param init - `ok` plus `result` or `error`, and any subclass fields. A failure's blank `error` is replaced by
   *   {@link BLANK_FAILURE_TEXT}.
   * @throws CoreError `INVALID_RESULT` when `init` holds a field the class does not declare.
   */
  constructor(init: ActionResultInit<T>, trusted?: typeof TRUSTED) {
    const self = this as unknown as Record<string, unknown>;
    self.ok = init.ok;
    self.result = init.result;
    self.error = !init.ok && isBlankError(init.error) ? BLANK_FAILURE_TEXT : init.error;
    if (trusted !== TRUSTED) {
      const fields = (new.target as unknown as ActionResultClass).fields;
      for (const key in init) {
        if (!fields.has(key)) {
          throw new CoreError(
            'INVALID_RESULT',
            `${new.target.name} has no field '${key}'. Declared fields: ${[...fields].join(', ')}. Add it to a subclass's static fields.`,
          );
        }
        if (!BASE_FIELDS.has(key)) self[key] = init[key];
      }
    }
  }

  /** The base fields plus `names`, for a subclass's static `fields`. */
  static extendFields(...names: string[]): ReadonlySet<string> {
    return new Set([...this.fields, ...names]);
  }

  /** A successful result carrying `result`, built with the class it is called on (a subclass yields a subclass). */
  static success<C extends ResultConstructor, T>(this: C, result: T, extra?: Record<string, unknown>): InstanceType<C> & { readonly result?: T } {
    return (extra === undefined ? new this({ ok: true, result: result as never }, TRUSTED) : new this({ ...extra, ok: true, result: result as never })) as InstanceType<C> & { readonly result?: T };
  }

  /** A failed result whose `error` is written for the model, built with the class it is called on. */
  static fail<C extends ResultConstructor>(this: C, error: string, extra?: Record<string, unknown>): InstanceType<C> {
    return (extra === undefined ? new this({ ok: false, error }, TRUSTED) : new this({ ...extra, ok: false, error })) as InstanceType<C>;
  }

  /**
   * A successful result carrying an image, sent as each provider's native image content (see docs/tools.md, "Binary
   * results").
   *
   * @param bytes - the image bytes (`Uint8Array`, `Buffer`, typed array or `ArrayBuffer`; copied).
   * @param mediaType - `image/png`, `image/jpeg`, ...; default: detected from the bytes (PNG, JPEG, GIF, WebP).
   * @param name - an optional file name.
   * @throws CoreError `INVALID_RESULT` when no media type is given and the bytes are not a recognised image, or the
   *   given one is not an `image/*` media type.
   */
  static image<C extends ResultConstructor>(this: C, bytes: Bytes, mediaType?: string, name?: string): InstanceType<C> & { readonly result?: BinaryContent } {
    const type = mediaType ?? (isBytes(bytes) ? detectMediaType(asUint8Array(bytes)) : undefined);
    if (type === undefined || !/^image\//i.test(type)) {
      throw new CoreError(
        'INVALID_RESULT',
        type === undefined
          ? 'ActionResult.image: the bytes are not a PNG, JPEG, GIF or WebP image; pass the media type, or use ActionResult.file for other content.'
          : `ActionResult.image: '${type.slice(0, 100)}' is not an image media type; use ActionResult.file for other content.`,
      );
    }
    return new this({ ok: true, result: BinaryContent.from(bytes, type, name) as never }, TRUSTED) as InstanceType<C> & { readonly result?: BinaryContent };
  }

  /**
   * A successful result carrying a file (a PDF, audio, any bytes), sent as each provider's native document, audio or
   * file content where it has one, else as base64 JSON with its media type (see docs/tools.md, "Binary results").
   *
   * @param bytes - the file bytes (`Uint8Array`, `Buffer`, typed array or `ArrayBuffer`; copied).
   * @param mediaType - default: detected from the bytes (see `detectMediaType`), else `application/octet-stream`.
   * @param name - an optional file name (shown by providers that take one).
   * @throws CoreError `INVALID_RESULT` when `mediaType` is not a `type/subtype` media type.
   */
  static file<C extends ResultConstructor>(this: C, bytes: Bytes, mediaType?: string, name?: string): InstanceType<C> & { readonly result?: BinaryContent } {
    return new this({ ok: true, result: BinaryContent.from(bytes, mediaType, name) as never }, TRUSTED) as InstanceType<C> & { readonly result?: BinaryContent };
  }

  /**
   * A successful result carrying links to resources (a file, a report, a saved output) and text for the model. MCP
   * sends each link as a `resource_link` content block beside the text (MCP specification 2025-06-18, "Resource
   * Links"); other providers send the text only.
   *
   * @param links - one link or several (`{ uri, name, title?, description?, mimeType?, size? }` or `ResourceLink`).
   * @param text - what the model reads; default: one line per link naming it and its URI.
   * @throws CoreError `INVALID_RESULT` when a link lacks a non-empty `uri` or `name`, or a field has the wrong type.
   */
  static resourceLink<C extends ResultConstructor>(
    this: C,
    links: ResourceLinkInit | ResourceLink | ReadonlyArray<ResourceLinkInit | ResourceLink>,
    text?: string,
  ): InstanceType<C> & { readonly result?: LinkedContent } {
    const list = Array.isArray(links) ? (links as ReadonlyArray<ResourceLinkInit | ResourceLink>) : [links as ResourceLinkInit];
    const content = new LinkedContent('', list);
    const value = new LinkedContent(text ?? content.links.map(describeLink).join('\n'), content.links);
    return new this({ ok: true, result: value as never }, TRUSTED) as InstanceType<C> & { readonly result?: LinkedContent };
  }

  /** A copy with some fields replaced (same class; unknown fields rejected). */
  with(patch: Partial<ActionResultInit<T>>): this {
    const Ctor = this.constructor as new (init: ActionResultInit<T>) => this;
    return new Ctor({ ...(this as unknown as ActionResultInit<T>), ...patch } as ActionResultInit<T>);
  }

  /** Plain JSON form (`ok`, `result` or `error`, and subclass fields that are set). */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this)) if (value !== undefined) json[key] = value;
    return json;
  }
}

Object.defineProperty(ActionResult.prototype, RESULT_BRAND, { value: true });
