import type { ActionResult, ActionResultClass } from '../result';
import { ToolChunk, ToolResultState, type ContentBlock, type DataBlock, type TextBlock } from './tool-chunk';

const RANK: Record<ToolResultState, number> = {
  [ToolResultState.RUNNING]: -1,
  [ToolResultState.SUCCESS]: 0,
  [ToolResultState.DENIED]: 1,
  [ToolResultState.INTERRUPTED]: 2,
  [ToolResultState.ERROR]: 3,
};

/** The final state of a response: never `RUNNING`. */
export type FinalState = Exclude<ToolResultState, ToolResultState.RUNNING>;

/**
 * The accumulated output of one tool call, built chunk by chunk with
 * {@link append}:
 * - a block whose `id` matches an earlier block of the same kind is merged into it (text concatenated, base64 bytes
 *   joined); a same-id block that cannot merge (another kind, a URL or JSON source) is appended without its id, so
 *   a tool's output never makes this throw;
 * - consecutive text blocks are concatenated;
 * - the state is the worst seen: `ERROR` > `INTERRUPTED` > `DENIED` > `SUCCESS` (`RUNNING` chunks change nothing);
 * - metadata is merged key by key, later chunks winning.
 */
export class ToolResponse {
  private readonly blocks: ContentBlock[] = [];
  private readonly ids = new Map<string, number>();
  private finalState: FinalState = ToolResultState.SUCCESS;
  private readonly meta: Record<string, unknown> = {};
  /** How many chunks were appended. */
  chunks = 0;

  /** The merged content blocks so far. */
  get content(): readonly ContentBlock[] {
    return this.blocks;
  }

  /** The worst state seen so far (`SUCCESS` until a chunk says otherwise). */
  get state(): FinalState {
    return this.finalState;
  }

  /** The merged metadata of every chunk. */
  get metadata(): Readonly<Record<string, unknown>> {
    return this.meta;
  }

  /** Adds one chunk (see the class docs for the merge rules). */
  append(chunk: ToolChunk): this {
    this.chunks++;
    for (const block of chunk.content) this.add(block);
    if (RANK[chunk.state] > RANK[this.finalState]) this.finalState = chunk.state as FinalState;
    Object.assign(this.meta, chunk.metadata);
    return this;
  }

  /** The text of every text block, in order. */
  get text(): string {
    return this.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }

  /**
   * The result a model reads. Success: `undefined` without content, the text when all content is text, the value
   * when the content is one JSON block, else the content blocks (see {@link isContentBlocks}). Any other state: a
   * failed result whose error is the text output, or a sentence naming the state when that text is blank.
   */
  toResult<R extends ActionResult<unknown>>(resultType: ActionResultClass<R>, toolName: string): R {
    const blocks = this.blocks;
    if (this.finalState === ToolResultState.SUCCESS) {
      const ok = (value: unknown): R => resultType.success(value);
      if (blocks.length === 0) return ok(undefined);
      if (blocks.every((b) => b.type === 'text')) return ok(this.text);
      const only = blocks[0]!;
      if (blocks.length === 1 && only.type === 'data' && only.source.type === 'json') return ok(only.source.value);
      return ok(contentBlocks(blocks));
    }
    const text = this.text.trim() === '' ? '' : this.text;
    switch (this.finalState) {
      case ToolResultState.INTERRUPTED:
        return resultType.fail(`Tool '${toolName}' was cancelled before it finished.${text ? ` Output so far: ${text}` : ''}`);
      case ToolResultState.DENIED:
        return resultType.fail(text || `Tool '${toolName}' was denied.`);
      default:
        return resultType.fail(text || `Tool '${toolName}' failed without a message.`);
    }
  }

  private add(block: ContentBlock): void {
    const index = block.id === undefined ? undefined : this.ids.get(block.id);
    if (index !== undefined) {
      const target = this.blocks[index]!;
      const merged = merge(target, block);
      if (merged !== undefined) {
        this.blocks[index] = merged;
        return;
      }
      block = withoutId(block);
    }
    const last = this.blocks[this.blocks.length - 1];
    if (block.type === 'text' && last?.type === 'text') {
      this.blocks[this.blocks.length - 1] = { ...last, text: last.text + block.text };
      if (block.id !== undefined) this.ids.set(block.id, this.blocks.length - 1);
      return;
    }
    this.blocks.push({ ...block });
    if (block.id !== undefined) this.ids.set(block.id, this.blocks.length - 1);
  }
}

const CONTENT_BRAND = Symbol.for('agenttoolkit.ContentBlocks');

/** A frozen copy of `blocks`, marked so that provider result builders render it as content rather than as JSON data. */
function contentBlocks(blocks: readonly ContentBlock[]): readonly ContentBlock[] {
  const copy = blocks.map((b) => Object.freeze({ ...b }));
  Object.defineProperty(copy, CONTENT_BRAND, { value: true });
  return Object.freeze(copy);
}

/**
 * True for the content blocks a streamed call's result carries when its output mixes kinds (text and media, or
 * several data blocks): provider result builders send such a result as content (text, images, files), not as JSON.
 */
export function isContentBlocks(value: unknown): value is readonly ContentBlock[] {
  return Array.isArray(value) && (value as unknown as Record<symbol, unknown>)[CONTENT_BRAND] === true;
}

function merge(target: ContentBlock, block: ContentBlock): ContentBlock | undefined {
  if (target.type === 'text' && block.type === 'text') return { ...target, text: target.text + block.text } satisfies TextBlock;
  if (target.type !== 'data' || block.type !== 'data') return undefined;
  const a = target.source;
  const b = block.source;
  if (a.type !== 'base64' || b.type !== 'base64') return undefined;
  const data = Buffer.concat([Buffer.from(a.data, 'base64'), Buffer.from(b.data, 'base64')]).toString('base64');
  return { ...target, name: block.name ?? target.name, source: { type: 'base64', mediaType: b.mediaType || a.mediaType, data } } satisfies DataBlock;
}

function withoutId(block: ContentBlock): ContentBlock {
  const copy = { ...block } as { id?: string };
  delete copy.id;
  return copy as ContentBlock;
}
