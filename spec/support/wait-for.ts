/**
 * Waits for a state a test needs (a process running, a file written, a process gone) instead of racing a fixed timer
 * against real work: polls `condition` every `everyMs` ms and resolves as soon as it holds.
 *
 * @param what - the state awaited, for the failure message.
 * @param polls - how many polls before giving up (with the default 20 ms, 1,000 polls are 20 s of waiting at the
 *   least): far longer than any busy machine needs, so only a state that never comes fails the test.
 * @throws Error `'<what>' did not happen` when the condition never held.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, { everyMs = 20, polls = 1_000 } = {}): Promise<void> {
  for (let i = 0; i < polls; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`'${what}' did not happen after ${polls} polls, ${everyMs} ms apart`);
}
