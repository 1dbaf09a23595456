import type { PermissionContext } from '../permissions/permission-context';
import type { PermissionDecision } from '../permissions/permission-decision';
import type { PermissionRule, RuleBehavior } from '../permissions/permission-rule';
import type { ToolChunkMiddleware } from './tool-info';
import { checkMaxConcurrency } from '../pipeline/limited-all';
import { ToolEffect } from './tool-effect';

type Input = Record<string, unknown>;

/**
 * The permission hooks a tool may supply instead of the defaults: its own verdict,
 * what a rule's content means for it, and which rules to suggest. Inputs are validated params.
 */
export interface ToolPermissionHooks<P = Input> {
  /** The tool's verdict on a call (default: ASK when the call needs approval, ALLOW when it only reads, else PASSTHROUGH). */
  checkPermissions?(input: P, context: PermissionContext): PermissionDecision | Promise<PermissionDecision>;
  /**
   * Whether a rule's content covers the call (default: no content rule covers it; tool-wide rules always do).
   * `context` gives the cwd relative paths resolve against; `behavior` is the rule's.
   */
  matchRule?(ruleContent: string, input: P, context: PermissionContext, behavior: RuleBehavior): boolean | Promise<boolean>;
  /** Suggested rules for an ASK (default: one tool-wide allow rule). `toolName` is the tool's name. */
  generateSuggestions?(input: P, toolName: string, context?: PermissionContext): PermissionRule[];
}

/**
 * The traits of a tool (concurrency, read-only, external, state injection, MCP origin, middleware), as `ToolBase`, `FunctionTool` and MCP adapters pass them to the `Tool`
 * constructor (`ToolSpec.traits`). `@Action` tools get them from their options instead (see `resolveTraits`).
 */
export interface ToolTraitsInit extends ToolPermissionHooks {
  readonly isConcurrencySafe?: boolean | undefined;
  readonly isReadOnly?: boolean | undefined;
  /** Per-call read-only check, overriding `isReadOnly` for the permission engine. */
  readonly readOnlyWhen?: ((input: Input) => boolean) | undefined;
  readonly isExternalTool?: boolean | undefined;
  readonly isStateInjected?: boolean | undefined;
  readonly isMcp?: boolean | undefined;
  readonly mcpName?: string | undefined;
  /** Per-tool onion middleware, first = outermost. */
  readonly middlewares?: readonly ToolChunkMiddleware[] | undefined;
  /** The most calls of the tool that run at once (see `ActionOptions.maxConcurrency`). */
  readonly maxConcurrency?: number | undefined;
}

/** Every trait decided, as the `Tool` keeps them. */
export interface ResolvedTraits extends ToolPermissionHooks {
  readonly isConcurrencySafe: boolean;
  readonly isReadOnly: boolean;
  readonly readOnlyWhen: ((input: Input) => boolean) | undefined;
  readonly isExternalTool: boolean;
  readonly isStateInjected: boolean;
  readonly isMcp: boolean;
  readonly mcpName: string | undefined;
  readonly middlewares: readonly ToolChunkMiddleware[];
  readonly maxConcurrency: number | undefined;
}

/** The `@Action` options that decide traits (a structural part of `ActionOptions`). */
export interface TraitOptions {
  readonly effects?: readonly ToolEffect[] | undefined;
  readonly readOnly?: boolean | ((params: never) => boolean) | undefined;
  readonly concurrencySafe?: boolean | undefined;
  readonly permissions?: unknown | undefined;
  readonly middlewares?: readonly ToolChunkMiddleware[] | undefined;
  readonly maxConcurrency?: number | undefined;
}

const NO_MIDDLEWARE: readonly ToolChunkMiddleware[] = Object.freeze([]);

/**
 * Decides a tool's traits. Explicit `traits` win; then the `@Action` options: `readOnly` (a boolean, or a predicate
 * over the params for per-call checks), `concurrencySafe`, `permissions` hooks, `middlewares` and `maxConcurrency`
 * (checked: a positive integer, else CoreError `INVALID_OPTION`). Defaults:
 * read-only when the tool declares its effects and they are at most `READS_WORKSPACE` (`effects: []` declares a
 * tool with no effect at all, such as a pure computation); an omitted `effects` means unknown, so not read-only.
 * Concurrency-safe when read-only. The MCP `readOnlyHint` follows the same answer.
 */
export function resolveTraits(options: TraitOptions, traits: ToolTraitsInit = {}): ResolvedTraits {
  const readOnly = options.readOnly;
  const effects = options.effects;
  const declaredReadOnly = effects !== undefined && effects.every((e) => e === ToolEffect.READS_WORKSPACE);
  const isReadOnly = traits.isReadOnly ?? (typeof readOnly === 'boolean' ? readOnly : readOnly === undefined && declaredReadOnly);
  const hooks = (options.permissions ?? {}) as ToolPermissionHooks;
  return {
    isReadOnly,
    readOnlyWhen: traits.readOnlyWhen ?? (typeof readOnly === 'function' ? (readOnly as (input: Input) => boolean) : undefined),
    isConcurrencySafe: traits.isConcurrencySafe ?? options.concurrencySafe ?? isReadOnly,
    isExternalTool: traits.isExternalTool ?? false,
    isStateInjected: traits.isStateInjected ?? false,
    isMcp: traits.isMcp ?? false,
    mcpName: traits.mcpName,
    middlewares: traits.middlewares ?? options.middlewares ?? NO_MIDDLEWARE,
    maxConcurrency: checkMaxConcurrency(traits.maxConcurrency ?? options.maxConcurrency, "A tool's maxConcurrency option"),
    checkPermissions: traits.checkPermissions ?? hooks.checkPermissions,
    matchRule: traits.matchRule ?? hooks.matchRule,
    generateSuggestions: traits.generateSuggestions ?? hooks.generateSuggestions,
  };
}
