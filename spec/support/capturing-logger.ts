import type { ToolLogger } from '../../lib';

/**
 * A logger for a registry whose tests fail calls on purpose: it keeps each line (`warn: <message>`,
 * `error: <message>`) for the test to assert on, instead of the default logger printing each expected failure with a
 * stack trace into the test run's output.
 */
export function capturingLogger(): ToolLogger & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    warn: (message) => void lines.push(`warn: ${message}`),
    error: (message) => void lines.push(`error: ${message}`),
  };
}
