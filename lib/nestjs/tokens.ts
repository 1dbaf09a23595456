import type { ContextId } from '@nestjs/core';
import { InjectionToken } from '../context/injection-token';

/** The Nest injection token of the module's options ({@link AgentToolkitModuleOptions}), for providers that read them. */
export const AGENT_TOOLKIT_OPTIONS: unique symbol = Symbol('agenttoolkit:nest-options');

/**
 * Per-call data: the Nest context id a tool call resolves request-scoped and transient providers in. Provide it in
 * the call's context (`tools.execute(name, args, { context: new ToolContext().provide(NEST_CONTEXT_ID, contextId) })`)
 * to share instances with the rest of a request. Without it (and without {@link NEST_REQUEST}), each call gets a
 * context id of its own (`ContextIdFactory.create()`).
 */
export const NEST_CONTEXT_ID = new InjectionToken<ContextId>('NestContextId');

/**
 * Per-call data: the HTTP request (or any request object) a tool call belongs to. The call resolves in that
 * request's Nest context id (`ContextIdFactory.getByRequest`, the one Nest's router uses), and the request is what
 * providers injecting Nest's `REQUEST` receive. {@link NEST_CONTEXT_ID} wins when both are provided.
 */
export const NEST_REQUEST = new InjectionToken<object>('NestRequest');

const byNestToken = new Map<string | symbol, InjectionToken<unknown>>();
const nestTokens = new WeakMap<InjectionToken<unknown>, string | symbol>();

/**
 * The `@Inject` token (of `agenttoolkit`) for a Nest provider registered under a string or symbol token
 * (`{ provide: 'BILLING_CONFIG', useValue: ... }`): `@Inject(nestToken<BillingConfig>('BILLING_CONFIG'))` on a tool
 * method's parameter receives that provider. The same Nest token always gives the same `InjectionToken`. Class tokens
 * need no mapping: `@Inject(PaymentsService)` resolves the Nest provider of that class.
 * @param token - the Nest injection token (a string or a symbol).
 */
export function nestToken<T>(token: string | symbol): InjectionToken<T> {
  let ours = byNestToken.get(token);
  if (ours === undefined) {
    ours = new InjectionToken<unknown>(`Nest ${String(token)}`);
    byNestToken.set(token, ours);
    nestTokens.set(ours, token);
  }
  return ours as InjectionToken<T>;
}

/** The Nest token a {@link nestToken} stands for, or undefined for any other `InjectionToken`. */
export function nestTokenOf(token: InjectionToken<unknown>): string | symbol | undefined {
  return nestTokens.get(token);
}
