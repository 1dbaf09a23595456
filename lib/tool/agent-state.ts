import { InjectionToken } from '../context/injection-token';
import type { Token } from '../context/injection-token';
import type { Invocation } from './invocation';

/** The agent's mutable state, shared by the tools of one agent (for example a task list). */
export type AgentState = Record<string, unknown>;

/**
 * The token a host provides the agent state under: `context.provide(AGENT_STATE, state)`. Tools with
 * `isStateInjected` receive it as `invocation.state`; a call without it fails with the missing-dependency result.
 */
export const AGENT_STATE = new InjectionToken<AgentState>('AgentState');

/** What `ToolBase.call` and `FunctionTool` functions receive: the call's context and signal, and the agent state when injected. */
export interface ToolInvocation extends Invocation {
  /** The agent state (`isStateInjected` tools only). */
  readonly state?: AgentState;
}

/** `invocation` with the agent state added when `injected` (resolved from the context; throws `MissingDependencyError` when absent). */
export function withAgentState(invocation: Invocation, injected: boolean, requiredBy: string): ToolInvocation {
  return injected ? { context: invocation.context, signal: invocation.signal, state: invocation.context.require(AGENT_STATE, requiredBy) } : invocation;
}

/** The traits of a tool whose injected dependencies include {@link AGENT_STATE}: `isStateInjected` (else none). */
export function agentStateTraits(tokens: Iterable<Token<unknown>>): { isStateInjected: true } | undefined {
  for (const token of tokens) if (token === AGENT_STATE) return { isStateInjected: true };
  return undefined;
}
