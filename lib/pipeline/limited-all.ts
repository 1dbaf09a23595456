import { CoreError } from '../errors';

/**
 * Checks a `maxConcurrency` option: `undefined` (no limit) or a positive integer.
 * @param where - the option as the caller wrote it (`runToolCalls({ maxConcurrency })`), named in the error.
 * @throws CoreError `INVALID_OPTION` for anything else (0, a negative number, a fraction, `NaN`, a string).
 */
export function checkMaxConcurrency(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new CoreError('INVALID_OPTION', `${where} must be a positive integer (the most calls that run at once), got ${String(value)}. Leave it out for no limit.`);
}

/**
 * Runs `run` on every item with at most `limit` of them pending at once (all at once without a limit), and resolves
 * to their results in the items' order, whatever order they finish in. An item starts as soon as an earlier one
 * settles, in item order. `run` must not reject (the callers' runs resolve to results).
 */
export function limitedAll<T, U>(items: readonly T[], limit: number | undefined, run: (item: T) => Promise<U>): Promise<U[]> {
  if (limit === undefined || limit >= items.length) return Promise.all(items.map(run));
  const results = new Array<U>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  return Promise.all(Array.from({ length: limit }, worker)).then(() => results);
}
