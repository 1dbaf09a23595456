import { LinkedContent } from '../media/resource-link';
import type { ActionResult } from '../result';
import { ToolChunk, ToolResultState, type ContentBlock } from '../streaming/tool-chunk';
import { countLines, fitsBudget } from './cut-output';
import { OUTPUT_FOLDER, STREAM_CHARS_PER_TOKEN, type ResolvedBudget } from './output-budget';
import { markerWriter, savedOutputLink, type SavedOutput } from './saved-output';

const RANK: Record<ToolResultState, number> = {
  [ToolResultState.RUNNING]: -1,
  [ToolResultState.SUCCESS]: 0,
  [ToolResultState.DENIED]: 1,
  [ToolResultState.INTERRUPTED]: 2,
  [ToolResultState.ERROR]: 3,
};

/**
 * The output budget of one streamed call. The text of the first chunks passes through until it fills half the
 * budget (the head); the text after it is held back in a tail buffer of bounded size (the budget's characters, or
 * {@link STREAM_CHARS_PER_TOKEN} per token), its oldest part dropped as new text comes. When the stream ends, the
 * held text follows as one chunk: all of it when the whole output fits, else the marker and the tail, so that head,
 * marker and tail fit the budget. A chunk whose text was held passes on without it, as `RUNNING`; its state comes
 * with the last chunk. With a workspace, the whole text is also kept (up to `maxSavedChars`) and saved when cut.
 */
export class StreamLimit {
  private saved: SavedOutput | undefined;
  private head = '';
  private tail = '';
  private dropped = 0;
  private droppedLines = 0;
  private holding = false;
  private full: string[] | undefined;
  private fullLength = 0;
  private readonly tailCap: number;
  /** The longest marker this call may end with: the head leaves room for it. */
  private readonly reserve: string;

  /**
   * @param budget - the call's budget.
   * @param save - saves the full text (resolves to undefined when it could not).
   * @param toolName - the tool's name, for the resource link.
   */
  constructor(
    private readonly budget: ResolvedBudget,
    private readonly save: (text: string) => Promise<SavedOutput | undefined>,
    private readonly toolName: string,
    private readonly markFinal: (result: ActionResult<unknown>) => void = () => undefined,
  ) {
    const byTokens = budget.maxTokens === undefined ? Infinity : budget.maxTokens * STREAM_CHARS_PER_TOKEN;
    this.tailCap = Math.min(budget.maxChars ?? Infinity, byTokens);
    this.full = budget.workspace === undefined ? undefined : [];
    this.reserve = markerReserve(budget, toolName);
  }

  /** `source` with its text kept within the budget (see the class docs). */
  async *wrap(source: AsyncIterable<ToolChunk>): AsyncGenerator<ToolChunk, void, undefined> {
    let state = ToolResultState.RUNNING;
    let isLast = false;
    for await (const chunk of source) {
      let held = false;
      const content: ContentBlock[] = [];
      for (const block of chunk.content) {
        if (block.type !== 'text') content.push(block);
        else {
          this.keep(block.text);
          const passed = this.pass(block.text);
          if (passed !== '') content.push(passed === block.text ? block : { ...block, text: passed });
          if (passed.length < block.text.length) held = true;
        }
      }
      if (!this.holding) {
        yield chunk;
        continue;
      }
      if (RANK[chunk.state] > RANK[state]) state = chunk.state;
      isLast ||= chunk.isLast;
      if (!held && chunk.state === ToolResultState.RUNNING) yield chunk;
      else if (content.length > 0 || Object.keys(chunk.metadata).length > 0) yield new ToolChunk({ content, metadata: chunk.metadata, id: chunk.id });
    }
    if (this.holding) yield ToolChunk.text(await this.rest(), { state, isLast });
  }

  /** `result` with a link to the saved output when the stream was cut and saved (a successful text result only). */
  finish<R extends ActionResult<unknown>>(result: R): R {
    if (!this.holding) return result;
    const final = this.saved === undefined || !result.ok || typeof result.result !== 'string' ? result : result.with({ result: new LinkedContent(result.result, [savedOutputLink(this.saved, this.toolName)]) } as Partial<R>);
    this.markFinal(final);
    return final;
  }

  /** Keeps `text` for saving, until the output is longer than the budget's `maxSavedChars`. */
  private keep(text: string): void {
    if (this.full === undefined) return;
    this.fullLength += text.length;
    if (this.fullLength > this.budget.maxSavedChars) this.full = undefined;
    else this.full.push(text);
  }

  /** The part of `text` that passes now; the rest is held in the tail buffer. */
  private pass(text: string): string {
    if (this.holding) {
      this.hold(text);
      return '';
    }
    const room = this.headRoom(text);
    if (room >= text.length) {
      this.head += text;
      return text;
    }
    const part = text.slice(0, room);
    this.head += part;
    this.holding = true;
    this.hold(text.slice(room));
    return part;
  }

  /** How much of `text` still fits in the head (half the budget), moved off the middle of a surrogate pair. */
  private headRoom(text: string): number {
    const { maxChars, maxTokens, estimateTokens } = this.budget;
    let room = maxChars === undefined ? text.length : Math.max(0, Math.ceil((maxChars - this.reserve.length) / 2) - this.head.length);
    if (maxTokens !== undefined) {
      const half = (maxTokens - estimateTokens!(this.reserve)) / 2;
      const fits = (length: number) => estimateTokens!(this.head + text.slice(0, length)) <= half;
      if (!fits(Math.min(room, text.length))) {
        let low = 0;
        let high = Math.min(room, text.length) - 1;
        while (low < high) {
          const mid = Math.ceil((low + high) / 2);
          if (fits(mid)) low = mid;
          else high = mid - 1;
        }
        room = low;
      }
    }
    if (room > 0 && room < text.length && isHigh(text.charCodeAt(room - 1))) room -= 1;
    return room;
  }

  /** Adds `text` to the tail buffer, dropping its oldest part past the buffer's size. */
  private hold(text: string): void {
    this.tail += text;
    if (this.tail.length <= this.tailCap) return;
    let cut = this.tail.length - this.tailCap;
    if (isHigh(this.tail.charCodeAt(cut - 1))) cut += 1;
    this.dropped += cut;
    this.droppedLines += countLines(this.tail, 0, cut);
    this.tail = this.tail.slice(cut);
  }

  /** The text that follows the head: the held text when everything fits, else the marker and the tail. */
  private async rest(): Promise<string> {
    if (this.dropped === 0 && fitsBudget(this.head + this.tail, this.budget)) return this.tail;
    const total = this.head.length + this.dropped + this.tail.length;
    this.saved = this.full === undefined ? undefined : await this.save(this.full.join(''));
    this.full = undefined;
    const writer = markerWriter(this.saved, this.budget.readTool);
    // A budget smaller than the marker gets the tail alone (the head has passed already).
    const marked = fitsBudget(this.head + writer({ totalChars: total, offset: this.head.length, cutChars: total, cutLines: 0 }), this.budget);
    const compose = (tailLength: number): string => {
      let start = this.tail.length - tailLength;
      if (start > 0 && isHigh(this.tail.charCodeAt(start - 1))) start += 1;
      if (!marked) return this.tail.slice(start);
      const written = writer({ totalChars: total, offset: this.head.length, cutChars: this.dropped + start, cutLines: this.droppedLines + countLines(this.tail, 0, start) });
      return written + this.tail.slice(start);
    };
    const fits = (tailLength: number) => fitsBudget(this.head + compose(tailLength), this.budget);
    let low = 0;
    let high = this.tail.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(mid)) low = mid;
      else high = mid - 1;
    }
    return compose(low);
  }
}

/** The longest marker a call of `toolName` can get (numbers of 16 digits, a saved output's path of its real length). */
function markerReserve(budget: ResolvedBudget, toolName: string): string {
  const big = Number.MAX_SAFE_INTEGER;
  const info = { totalChars: big, offset: big, cutChars: big, cutLines: big };
  const unsaved = markerWriter(undefined, budget.readTool)(info);
  if (budget.workspace === undefined) return unsaved;
  const id = `${toolName}-${'0'.repeat(13)}-${'0'.repeat(36)}.txt`;
  const saved = markerWriter({ id, path: `${OUTPUT_FOLDER}/${id}`, uri: '', chars: 0 }, budget.readTool)(info);
  return saved.length > unsaved.length ? saved : unsaved;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
