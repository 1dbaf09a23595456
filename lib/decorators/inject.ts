import type { Token } from '../context/injection-token';
import { MetadataKeys } from '../metadata/keys';
import type { InjectRecord } from '../metadata/records';
import { defineOwn, getOwn } from '../metadata/reflection';

/** Options of `@Inject(token, options)`. */
export interface InjectOptions<T = unknown> {
  /** When nothing resolves, pass `undefined` (or `default`) instead of failing the call. */
  optional?: boolean | undefined;
  /** Passed when nothing resolves; implies `optional`. */
  default?: T | undefined;
}

/**
 * Resolves this parameter from the call's {@link ToolContext} at call time. It never appears in
 * any schema. A class token matches instances of the class or a subclass; an `InjectionToken` matches the value bound
 * to it. Two tokens are always available: `AbortSignal` (the call's signal, aborted on timeout or cancellation) and
 * `ToolContext` (the call's context).
 *
 * A required dependency that does not resolve fails the call with a `MISSING_DEPENDENCY` message; `undefined` is never
 * passed on silently.
 */
export function Inject<T>(token: Token<T>, options: InjectOptions<T> = {}): ParameterDecorator {
  return (target, member, index) => {
    if (member === undefined) return;
    const hasDefault = 'default' in options;
    const record: InjectRecord = { index, token, optional: hasDefault || (options.optional ?? false), defaultValue: options.default };
    const existing = getOwn<InjectRecord[]>(MetadataKeys.inject, target, member) ?? [];
    defineOwn(MetadataKeys.inject, [...existing, record], target, member);
  };
}
