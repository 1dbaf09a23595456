import { SpanKind, SpanStatusCode, trace, type Attributes, type TracerProvider } from '@opentelemetry/api';
import type { Sandbox, SandboxExecuteOptions, SandboxResult } from '../sandbox/sandbox';
import { INSTRUMENTATION_SCOPE } from './attribute-names';

/** Options of {@link tracedSandbox}. */
export interface TracedSandboxOptions {
  /** The tracer provider spans go to. Default: the global one. */
  readonly tracerProvider?: TracerProvider | undefined;
  /**
   * Opt-in: the text recorded as `agenttoolkit.sandbox.command` for a command (redact it here), or `undefined` for
   * none. Default: commands are not recorded (they may hold secrets). A hook that throws records nothing.
   */
  readonly recordCommand?: ((command: string) => string | undefined) | undefined;
}

/** Span name of one sandbox execution. */
export const SANDBOX_EXECUTE_SPAN = 'agenttoolkit.sandbox.execute';

/**
 * `sandbox`, with each `execute` recorded as a span `agenttoolkit.sandbox.execute` (kind INTERNAL) under the current
 * span: inside a traced tool call (`openTelemetry()`), a child of its `execute_tool` span. Attributes:
 * `agenttoolkit.sandbox.backend` (the sandbox's class name), `agenttoolkit.sandbox.exit_code`,
 * `agenttoolkit.sandbox.timed_out`, `agenttoolkit.sandbox.truncated` (the exit code is -1 for a timed-out command,
 * which has none), and the command only through
 * `options.recordCommand`. A timed-out command, or an `execute` that throws, ends the span with an ERROR status (and
 * `error.type`: `timeout`, or the error's class name); a non-zero exit is a result, not an error.
 *
 * Every other member (`close`, `capabilities`, a backend's own methods) is the sandbox's own, unchanged.
 */
export function tracedSandbox<S extends Sandbox>(sandbox: S, options: TracedSandboxOptions = {}): S {
  const backend = sandbox.constructor?.name ?? 'Sandbox';
  const execute = async (command: string, executeOptions?: SandboxExecuteOptions): Promise<SandboxResult> => {
    const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
    const attributes: Attributes = { 'agenttoolkit.sandbox.backend': backend };
    const text = recorded(options.recordCommand, command);
    if (text !== undefined) attributes['agenttoolkit.sandbox.command'] = text;
    return tracer.startActiveSpan(SANDBOX_EXECUTE_SPAN, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
      try {
        const result = await sandbox.execute(command, executeOptions);
        span.setAttributes({ 'agenttoolkit.sandbox.exit_code': result.exitCode ?? -1, 'agenttoolkit.sandbox.timed_out': result.timedOut, 'agenttoolkit.sandbox.truncated': result.truncated });
        if (result.timedOut) {
          span.setAttribute('error.type', 'timeout');
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return result;
      } catch (error) {
        span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
  };
  return new Proxy(sandbox, {
    get(target, key) {
      if (key === 'execute') return execute;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function recorded(hook: ((command: string) => string | undefined) | undefined, command: string): string | undefined {
  if (hook === undefined) return undefined;
  try {
    const text = hook(command);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
