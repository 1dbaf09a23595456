/**
 * Where a tool call stands. Chunks are usually `RUNNING`; a final response is one of
 * the other four, worst first: `ERROR` > `INTERRUPTED` > `DENIED` > `SUCCESS`.
 */
export enum ToolResultState {
  /** Still running: the state of a streamed chunk. */
  RUNNING = 'running',
  /** Finished successfully. */
  SUCCESS = 'success',
  /** Failed (an exception, a timeout, invalid arguments). */
  ERROR = 'error',
  /** Stopped before it finished (aborted). */
  INTERRUPTED = 'interrupted',
  /** Refused by the permission engine or the user. */
  DENIED = 'denied',
}

/** Text output. Blocks with the same `id` are concatenated across chunks; consecutive text blocks always are. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly id?: string;
}

/**
 * Where a data block's bytes or value are: base64 bytes with a media type (same-id chunks are joined byte-wise), a
 * URL, or a JSON value (a tool's structured return value: what `execute` hands back as `result`).
 */
export type DataSource =
  | { readonly type: 'base64'; readonly mediaType: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string; readonly mediaType?: string }
  | { readonly type: 'json'; readonly value: unknown };

/** Non-text output: media or a structured value. Merged across chunks only by an explicit shared `id`. */
export interface DataBlock {
  readonly type: 'data';
  readonly source: DataSource;
  readonly name?: string;
  readonly id?: string;
}

/** One piece of a tool's output. */
export type ContentBlock = TextBlock | DataBlock;

/** The fields of a {@link ToolChunk}; all optional. */
export interface ToolChunkInit {
  readonly content?: readonly ContentBlock[] | undefined;
  /** Default `RUNNING`. */
  readonly state?: ToolResultState | undefined;
  /**
   * Whether this is the last chunk (default false). A tool may set it on its last chunk; `tools.stream(...)` makes
   * sure the stream's last chunk has it, adding an empty chunk in the final state when the tool's last one does not.
   */
  readonly isLast?: boolean | undefined;
  /** For the host, merged key by key into the response's metadata; never shown to the model. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly id?: string | undefined;
}

/**
 * One piece of streamed tool output: content blocks, a state, an is-last flag, metadata and
 * an id. Frozen. A tool body or `ToolBase.call` may return one, or an async iterable of them (strings in the stream
 * count as text chunks); a {@link ToolResponse} accumulates them.
 */
export class ToolChunk {
  readonly content: readonly ContentBlock[];
  readonly state: ToolResultState;
  readonly isLast: boolean;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly id: string | undefined;

  constructor(init: ToolChunkInit = {}) {
    this.content = Object.freeze([...(init.content ?? [])]);
    this.state = init.state ?? ToolResultState.RUNNING;
    this.isLast = init.isLast ?? false;
    this.metadata = Object.freeze({ ...init.metadata });
    this.id = init.id;
    Object.freeze(this);
  }

  /** A chunk of text (default state `RUNNING`). */
  static text(text: string, init: Omit<ToolChunkInit, 'content'> & { blockId?: string } = {}): ToolChunk {
    const block: TextBlock = init.blockId === undefined ? { type: 'text', text } : { type: 'text', text, id: init.blockId };
    return new ToolChunk({ ...init, content: [block] });
  }

  /** A chunk carrying a structured value as a JSON data block (default state `RUNNING`). */
  static json(value: unknown, init: Omit<ToolChunkInit, 'content'> = {}): ToolChunk {
    return new ToolChunk({ ...init, content: [{ type: 'data', source: { type: 'json', value } }] });
  }
}
