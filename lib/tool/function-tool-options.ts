import type { ParamsSchema, Static } from '../schema/schema-types';
import type { DescriptionSource } from '../context/context-description';
import type { Token } from '../context/injection-token';
import type { ActionOptions } from './action-options';
import type { Invocation } from './invocation';

/** The value type a token resolves to. */
export type TokenValue<K> = K extends Token<infer T> ? T : never;

/** Options of `tools.action(options, fn)`: an `@Action` for code without classes. */
export interface FunctionActionOptions<P extends ParamsSchema, D extends Record<string, Token<unknown>>> extends ActionOptions<P> {
  /** The tool name (required: a function has no method name to default to). */
  name: string;
  description: string | DescriptionSource;
  /** Dependencies resolved from the call's context and passed as the second argument, by key. All required. */
  inject?: D | undefined;
  /** The group the tool belongs to (default `"default"`). */
  group?: string | undefined;
}

/** The function `tools.action` registers: typed params, resolved dependencies, and the call's context and signal. */
export type ActionFunction<P extends ParamsSchema, D extends Record<string, Token<unknown>>> = (
  params: Static<P>,
  dependencies: { [K in keyof D]: TokenValue<D[K]> },
  invocation: Invocation,
) => unknown;
