import type { ToolLogger } from './logger';
import type { ToolMiddleware } from './middleware';

/**
 * The call-logging step (after user middleware, before invoke): one `debug` line per call with the tool name, the
 * outcome and the duration in ms. The arguments are never logged: they may hold secrets.
 */
export function loggingStep(logger: ToolLogger): ToolMiddleware {
  return {
    async handle(call, next) {
      const started = performance.now();
      const result = await next(call);
      logger.debug?.(`tool ${call.name} ${result.ok ? 'ok' : 'failed'}`, { tool: call.name, ok: result.ok, durationMs: performance.now() - started });
      return result;
    },
  };
}
