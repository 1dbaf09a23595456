/**
 * Where the pipeline reports: `debug` receives one line per call (name, outcome, duration in ms; never the arguments,
 * which may hold secrets), `warn` an exception thrown by a tool (with its stack), `error` an internal failure. Pass
 * `console`, or an adapter for pino/winston. Without `debug` the call-logging step is left out of the pipeline.
 */
export interface ToolLogger {
  /** One line per call: name, outcome, duration in ms. */
  debug?(message: string, details?: Record<string, unknown>): void;
  /** An exception thrown by a tool, with its stack in `details`. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** An internal failure of the pipeline. */
  error(message: string, details?: Record<string, unknown>): void;
}

/** The default logger: warnings and errors to the console, no per-call debug lines. */
export const consoleLogger: ToolLogger = {
  warn: (message, details) => console.warn(message, details ?? ''),
  error: (message, details) => console.error(message, details ?? ''),
};
