import type { NextHandler, ToolMiddleware } from '../pipeline/middleware';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import { ToolEffect } from '../tool/tool-effect';
import type { SkillLogger } from './options';
import { Skills } from './skills';

/** Options of {@link SkillRefreshMiddleware}. */
export interface SkillRefreshOptions {
  /**
   * Which finished calls trigger a refresh. Replaces the default, {@link writesWorkspace} (every tool that declares
   * `ToolEffect.WRITES_WORKSPACE`); combine with it to widen: `(call) => writesWorkspace(call) || call.name === 'git'`.
   */
  readonly when?: (call: ToolCall) => boolean;
  /** Where a refused edit is reported (once per broken state); default `console`. */
  readonly logger?: SkillLogger;
}

/** The default trigger of {@link SkillRefreshMiddleware}: the call's tool declares `ToolEffect.WRITES_WORKSPACE`. */
export function writesWorkspace(call: ToolCall): boolean {
  return call.tool.hasEffect(ToolEffect.WRITES_WORKSPACE);
}

/**
 * Keeps a {@link Skills} registry current for agents that write their own skills.
 *
 * After each call matching `when` (default: tools declaring `WRITES_WORKSPACE`, so a new write tool is covered as soon
 * as it declares its effect), it resolves `Skills` from the call's `ToolContext` (not one captured at construction:
 * a per-call or swapped context refreshes the registry actually in use) and awaits `refreshIfChanged({ checkDisk:
 * true })`: the fingerprint is compared even while the registry is watched, because the watcher's event for a write
 * that just finished may not have arrived yet. It never
 * changes the tool's result: a refused skill edit is logged once per broken state and stays inactive. Without `Skills`
 * in the context it does nothing.
 *
 * @example
 * ```ts
 * const skills = await Skills.fromLocalDir('./skills');
 * const tools = new Tools({ context: new ToolContext(skills), middleware: [new SkillRefreshMiddleware()] });
 * ```
 */
export class SkillRefreshMiddleware implements ToolMiddleware {
  private readonly when: (call: ToolCall) => boolean;
  private readonly logger: SkillLogger;
  private readonly reported = new WeakSet<object>();

  /** @param options - the trigger and the logger ({@link SkillRefreshOptions}). */
  constructor(options: SkillRefreshOptions = {}) {
    this.when = options.when ?? writesWorkspace;
    this.logger = options.logger ?? console;
  }

  /** Runs the call, then refreshes the context's skills when the call matches; resolves to the call's own result. */
  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const result = await next(call);
    try {
      // The trigger is host code too: whatever it throws is reported like a failed refresh, never the call's result.
      if (!this.when(call)) return result;
      const skills = call.context.resolve(Skills);
      if (skills === undefined) return result;
      await skills.refreshIfChanged({ checkDisk: true });
    } catch (error) {
      this.report(call, error);
    }
    return result;
  }

  private report(call: ToolCall, error: unknown): void {
    if (typeof error === 'object' && error !== null) {
      if (this.reported.has(error)) return;
      this.reported.add(error);
    }
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Skills were not refreshed after tool '${call.name}'; the previous skills stay active. ${message}`);
  }
}
