import type { ToolLogger } from '../../lib';

/**
 * A logger for a registry whose tests fail calls on purpose: it keeps each line (`debug: <message>` for an expected
 * failure, `warn: <message>`, `error: <message>`; not the per-call `tool x ok` lines) for the test to assert on, instead of the default logger printing each expected failure with a
 * stack trace into the test run's output.
 */
export function capturingLogger(): ToolLogger & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (message) => void (message.startsWith('tool ') || lines.push(`debug: ${message}`)),
    warn: (message) => void lines.push(`warn: ${message}`),
    error: (message) => void lines.push(`error: ${message}`),
  };
}
