import { MissingDependencyError } from '../context/tool-context';
import { isActionResult, isBlankError, type ActionResult, type ActionResultClass, type ActionResultInit } from '../result';
import { CANCELLED } from './await-call';
import type { ToolLogger } from './logger';
import { asClause, cutText } from '../text/cut-text';

/**
 * Turns every outcome of a call into a result of the registry's result type, with the model-facing message for each
 * failure kind (`execute` never rejects for an expected failure), and logs what the host must see: a tool's expected
 * failure (a returned failed result, a thrown `ToolError`) as one warn line without a stack; any other exception a
 * tool throws, a bug, with its stack (warn); a missing dependency or an internal error (error). Messages never carry
 * a stack.
 */
export class Outcomes<R extends ActionResult<unknown>> {
  constructor(
    readonly resultType: ActionResultClass<R>,
    private readonly logger: ToolLogger,
  ) {}

  /** `Unknown tool '<name>'. Available: <names>` (the resolution step). */
  unknownTool(name: string, available: readonly string[]): R {
    // The name comes from the model: a registered name has at most 64 characters, so a longer one is cut when echoed.
    const shown = typeof name === 'string' ? cutText(name, MAX_NAME) : name;
    return this.resultType.fail(`Unknown tool '${shown}'. Available: ${available.length ? available.join(', ') : '(none)'}`);
  }

  /** A call whose signal was already aborted: nothing ran. */
  cancelledBeforeStart(name: string): R {
    return this.resultType.fail(`Tool '${name}' was cancelled before it started.`);
  }

  /** A call refused because `running` calls of the tool run (its `maxConcurrency`) and `waiting` more wait already. */
  busy(name: string, running: number, waiting: number): R {
    return this.resultType.fail(`Tool '${name}' is busy: ${running} calls of it are running and ${waiting} are waiting, the most it queues. Try again later, or do something else first.`);
  }

    /** A call a person refused (see {@link declinedMessage}). */
  declined(name: string, reason?: string): R {
    return this.resultType.fail(declinedMessage(name, reason));
  }

  /** A call the permission policy refused: a rule, the mode or the tool's own check (see {@link deniedMessage}). */
  denied(name: string, reason: string): R {
    return this.resultType.fail(deniedMessage(name, reason));
  }

  /** A call that needs approval nobody could give (see {@link unapprovedMessage}). */
  unapproved(name: string, reason?: string): R {
    return this.resultType.fail(unapprovedMessage(name, reason));
  }

  /**
   * A call that needs approval, given an approval that does not cover it (`why`: what differs, from
   * `approvalMismatch`); see {@link mismatchedApprovalMessage}.
   */
  mismatchedApproval(name: string, why: string): R {
    return this.resultType.fail(mismatchedApprovalMessage(name, why));
  }

  /** What the tool threw or rejected with: cancellation, a missing dependency, or its own error (first line only). */
  toolFailure(name: string, error: unknown): R {
    try {
      return this.describeFailure(name, error);
    } catch {
      // What the tool threw cannot even be inspected (a revoked Proxy, a `message` getter that throws): still a result.
      return this.resultType.fail(`Tool '${name}' failed with an error that could not be read.`);
    }
  }

  private describeFailure(name: string, error: unknown): R {
    if (error === CANCELLED) return this.resultType.fail(`Tool '${name}' was cancelled before it finished.`);
    if (isToolError(error)) {
      this.expectedFailure(name, error.message);
      return this.resultType.fail(error.message);
    }
    if (error instanceof MissingDependencyError) {
      this.log('error', `Tool '${name}' could not run: ${error.message}`);
      return this.resultType.fail(`Tool '${name}' cannot run right now: a service it needs is not configured. This is not caused by your arguments.`);
    }
    this.log('warn', `Tool '${name}' threw`, error);
    return this.resultType.fail(`Tool '${name}' failed: ${messageOf(error)}`);
  }

  /**
   * Logs a tool's expected failure (a failed result it returned, or the message of a `ToolError` it threw): one
   * `debug` line with the message's first line, no stack. Such a failure is the model's to act on, not a fault of
   * the host, so it is not a warning; a logger without `debug` does not see it.
   */
  expectedFailure(name: string, message: unknown): void {
    this.log('debug', `Tool '${name}' failed: ${messageOf(typeof message === 'string' ? message : '')}`);
  }

  /** The error boundary's answer to an unexpected error: logged with its stack, a short generic message for the model. */
  internalError(name: string, error: unknown): R {
    this.log('error', `Internal error while executing tool '${name}'`, error);
    return this.resultType.fail(`Internal error while running tool '${name}'. It was logged; try again or use another tool.`);
  }

  /**
   * Logs `message`, with the error and its stack when one is passed. A logger that throws, or an error whose stack
   * cannot be read, never fails the call.
   */
  private log(level: 'debug' | 'warn' | 'error', message: string, ...error: [unknown?]): void {
    try {
      if (level === 'debug') return void this.logger.debug?.(message);
      // One line with the error's first line, and its stack once in the details (never the error object too:
      // console loggers would print the stack twice).
      if (error.length === 0) this.logger[level](message);
      else this.logger[level](`${message}: ${messageOf(error[0])}`, { stack: stackOf(error[0]) });
    } catch {
      // Logging is best effort: the call's result must still reach the model.
    }
  }

  /** Wraps a raw value in the result type; an `ActionResult` of another class keeps the fields this type declares. */
  conform(value: unknown): R {
    // A primitive (the usual return value) is no result of any class.
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return this.resultType.success(value);
    // A tool returning an ActionResult of another class or library copy keeps the fields this type declares.
    if (value instanceof this.resultType) return value;
    if (isActionResult(value)) {
      const fields = value as unknown as Record<string, unknown>;
      const init: Record<string, unknown> = {};
      for (const key of this.resultType.fields) if (fields[key] !== undefined) init[key] = fields[key];
      return new this.resultType(init as unknown as ActionResultInit<unknown>);
    }
    return this.resultType.success(value);
  }
}

/** An unknown tool name the model sent is echoed in at most this many characters (registered names have at most 64). */
const MAX_NAME = 100;
/** The first line of a tool's error reaches the model in at most this many characters. */
const MAX_ERROR_LINE = 500;
/**
 * The model-facing text for a call a person refused: `The user declined to run tool '<name>'.`, with the person's
 * reason in parentheses when one is given.
 */
export function declinedMessage(name: string, reason?: string): string {
  const why = reason === undefined ? '' : clause(reason);
  return `The user declined to run tool '${name}'${why ? ` (${why})` : ''}. Do not retry it unchanged; ask the user or take another approach.`;
}

/**
 * The model-facing text for a call the permission policy refused (a deny rule, the mode, the tool's own check):
 * `Permission denied for tool '<name>': <reason>`. No person was asked, so it never says the user declined.
 */
export function deniedMessage(name: string, reason: string): string {
  const why = sentence(reason);
  return `Permission denied for tool '${name}'${why ? `: ${why}` : '.'} Do not retry it unchanged; take another approach or ask the user.`;
}

/** The model-facing text for a call that needs a person's approval when there is no one to ask. */
export function unapprovedMessage(name: string, reason?: string): string {
  const why = reason === undefined ? '' : clause(reason);
  return `Tool '${name}' was not run: it needs approval and no approval step is configured${why ? ` (${why})` : ''}. Ask the user or take another approach.`;
}

/**
 * The text for a call that needs approval and was passed an approval for another call, or one without the call's
 * id: `Tool '<name>' was not run: it needs approval, and <why>.`
 */
export function mismatchedApprovalMessage(name: string, why: string): string {
  return `Tool '${name}' was not run: it needs approval, and ${why}.`;
}

/** A reason quoted in a refusal is cut to this many characters (it may echo the model's input). */
const MAX_REASON = 1000;

/** Text as one clause inside a sentence: trimmed, without a final full stop (in linear time), then capped. */
function clause(text: string): string {
  return isBlankError(text) ? '' : cutText(asClause(text), MAX_REASON);
}

/** Text as whole sentences: trimmed, ending in exactly one full stop (or its own `!` or `?`). */
function sentence(text: string): string {
  const trimmed = clause(text);
  // A clause ends in '.' only when it was cut (the '...' marker): no full stop after it.
  return trimmed === '' || /[!?.]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A `ToolError` of this or another copy of the library (matched by name and code, not by class identity). */
function isToolError(error: unknown): error is Error & { readonly code: 'TOOL_FAILED' } {
  return error instanceof Error && error.name === 'ToolError' && (error as { code?: unknown }).code === 'TOOL_FAILED';
}

function stackOf(error: unknown): string | undefined {
  return error instanceof Error ? error.stack : undefined;
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'an unknown error';
  const firstLine = message.split('\n', 1)[0]!;
  return isBlankError(firstLine) ? 'an error without a message' : cutText(firstLine, MAX_ERROR_LINE);
}
