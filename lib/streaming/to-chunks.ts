import { ActionResult } from '../result';
import { CANCELLED, raceAbort } from '../pipeline/await-call';
import { ToolChunk, ToolResultState } from './tool-chunk';
import { ToolResponse } from './tool-response';

/** True for what a tool body returns when it streams: a {@link ToolChunk} or an async iterable. Cheap on plain values. */
export function isStreamed(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value instanceof ToolChunk || typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function')
  );
}

/**
 * The one chunk that stands for a tool's plain return value (a call that does not stream yields exactly one):
 * a string is text, `undefined` is no content, an `ActionResult` keeps its outcome (a failure becomes an `ERROR`
 * chunk with the error as text), anything else is a JSON data block. The chunk's state is final (`SUCCESS`/`ERROR`),
 * so that accumulating it gives back the same result.
 */
export function valueToChunk(value: unknown): ToolChunk {
  if (value instanceof ToolChunk) return value;
  if (value instanceof ActionResult) {
    if (!value.ok) return ToolChunk.text(value.error ?? '', { state: ToolResultState.ERROR });
    value = value.result;
  }
  if (typeof value === 'string') return ToolChunk.text(value, { state: ToolResultState.SUCCESS });
  if (value === undefined) return new ToolChunk({ state: ToolResultState.SUCCESS });
  return ToolChunk.json(value, { state: ToolResultState.SUCCESS });
}

/** `chunk` with `isLast: true` (the same chunk when it has it). */
export function asLastChunk(chunk: ToolChunk): ToolChunk {
  return chunk.isLast ? chunk : new ToolChunk({ content: chunk.content, state: chunk.state, isLast: true, metadata: chunk.metadata, id: chunk.id });
}

/** One element of a streamed body: chunks as they are, strings as text, anything else as a JSON block. */
function itemToChunk(item: unknown): ToolChunk {
  if (item instanceof ToolChunk) return item;
  if (typeof item === 'string') return ToolChunk.text(item);
  return ToolChunk.json(item);
}

/**
 * Whatever a tool body returned (a value, a promise, a chunk, an async iterable of chunks or strings) as an async
 * iterable of chunks: what per-tool middleware's `next` always yields, streaming tool or not.
 */
export async function* toChunks(value: unknown): AsyncGenerator<ToolChunk, void, undefined> {
  const settled = await value;
  if (settled !== null && typeof settled === 'object' && typeof (settled as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function') {
    for await (const item of settled as AsyncIterable<unknown>) yield itemToChunk(item);
    return;
  }
  yield asLastChunk(valueToChunk(settled)); // a plain value is the one chunk
}

/**
 * Drains `chunks` into a {@link ToolResponse}, handing each chunk to `onChunk` (awaited) on the way. When `signal`
 * aborts, stops at once (asks the iterator to return without waiting for it) and records an `INTERRUPTED` state.
 * Rejects with whatever the source throws.
 */
export async function collectChunks(
  chunks: AsyncIterable<ToolChunk>,
  signal: AbortSignal,
  onChunk?: (chunk: ToolChunk) => void | Promise<void>,
): Promise<ToolResponse> {
  const response = new ToolResponse();
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    const step = await nextOrAbort(iterator, signal);
    if (step === ABORTED) {
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
      response.append(new ToolChunk({ state: ToolResultState.INTERRUPTED }));
      return response;
    }
    if (step.done) return response;
    response.append(step.value);
    if (onChunk !== undefined) await onChunk(step.value);
  }
}

const ABORTED = Symbol('aborted');

/** The iterator's next step, or ABORTED as soon as `signal` aborts. */
function nextOrAbort(iterator: AsyncIterator<ToolChunk>, signal: AbortSignal): Promise<IteratorResult<ToolChunk> | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return (raceAbort(iterator.next(), signal) as Promise<IteratorResult<ToolChunk>>).catch((error: unknown) => {
    if (error === CANCELLED) return ABORTED;
    throw error;
  });
}
