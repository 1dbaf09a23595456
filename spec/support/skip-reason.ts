/**
 * The title of a suite or test skipped on this machine, carrying why: the run summary of `npm test`
 * (scripts/jest-run-summary.js) reads the reason back from the title (`<name> (skipped: <reason>)`) and prints each
 * reason once with how many tests it skipped, so a skipped suite is visible without a line of its own in the output.
 */
export function skippedTitle(name: string, reason: string): string {
  return `${name} (skipped: ${reason.replace(/\s+/g, ' ').trim()})`;
}
