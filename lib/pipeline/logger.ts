/**
 * Where the pipeline reports: `debug` receives one line per call (name, outcome, duration in ms; never the arguments,
 * which may hold secrets), and an expected failure (a failed result, a `ToolError`), `warn` an exception thrown by a tool (with its stack),
 * `error` an internal failure. Pass
 * `console`, or an adapter for pino/winston. Without `debug` the call-logging step is left out of the pipeline.
 */
export interface ToolLogger {
  /** One line per call: name, outcome, duration in ms; and a tool's expected failure, its first line. */
  debug?(message: string, details?: Record<string, unknown>): void;
  /** An exception thrown by a tool, with its stack in `details`. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** An internal failure of the pipeline. */
  error(message: string, details?: Record<string, unknown>): void;
}

/**
 * The default logger: warnings (a tool that threw) and errors (an internal failure) to the console, the details only
 * when there are some; no per-call debug lines, and so no expected failures (a failed result is the model's to act on).
 */
export const consoleLogger: ToolLogger = {
  warn: (message, details) => (details === undefined ? console.warn(message) : console.warn(message, details)),
  error: (message, details) => (details === undefined ? console.error(message) : console.error(message, details)),
};
