import { AsyncLocalStorage } from 'node:async_hooks';
import type { InjectionToken as NestToken } from '@nestjs/common';
import { ContextIdFactory, type ContextId, type ModuleRef } from '@nestjs/core';
import { REQUEST_CONTEXT_ID } from '@nestjs/core/router/request/request-constants.js';
import { InjectionToken, type Token } from '../context/injection-token';
import { ToolContext } from '../context/tool-context';
import { scanClass } from '../metadata/scanner';
import type { NextHandler, ToolMiddleware } from '../pipeline/middleware';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import { NestToolsError } from './errors';
import { NEST_CONTEXT_ID, NEST_REQUEST, nestTokenOf } from './tokens';

/** Nest's `Scope.DEFAULT` as `ModuleRef.introspect` reports it: one instance for the application. */
const SINGLETON = 0;

/** One `@Inject` parameter that a Nest provider satisfies. */
interface Dependency {
  readonly ours: Token<unknown>;
  readonly nest: NestToken;
  /** The singleton instance, resolved once at registration; absent for request-scoped and transient providers. */
  readonly instance?: { readonly value: unknown };
}

/** What a call of one tool needs from Nest. */
interface Plan {
  readonly dependencies: readonly Dependency[];
  /** For a tool of a request-scoped or transient provider: the provider's token, resolved per call. */
  readonly provider: NestToken | undefined;
}

/**
 * The registry's innermost middleware: before a tool of a Nest provider runs, it resolves the tool's `@Inject`
 * parameters that name Nest providers and binds them into a copy of the call's context (so they win over the
 * per-call `ToolContext`, which still serves everything else), and resolves the instance of a request-scoped or
 * transient tool provider. Scoped providers resolve in the call's Nest context id (see `NEST_CONTEXT_ID`).
 */
export class NestToolResolver implements ToolMiddleware {
  private readonly plans = new Map<Tool, Plan>();
  private readonly current = new AsyncLocalStorage<object>();

  constructor(private readonly moduleRef: ModuleRef) {}

  /**
   * Records what `tools` (just built from one provider's class `ctor`) need from Nest. `provider` is the provider's
   * token when its instance is resolved per call.
   */
  plan(tools: readonly Tool[], ctor: abstract new (...args: never[]) => unknown, provider: NestToken | undefined): void {
    const actions = scanClass(ctor).actions;
    for (const tool of tools) {
      const action = actions.find((a) => a.where === tool.source);
      const dependencies = action!.injects.flatMap((record) => this.dependency(record.token));
      if (dependencies.length > 0 || provider !== undefined) this.plans.set(tool, { dependencies, provider });
    }
  }

  /**
   * A stand-in for a request-scoped or transient provider, registered in its place: each `@Action` method forwards
   * to the instance this middleware resolved for the running call.
   */
  standIn(ctor: abstract new (...args: never[]) => unknown): object {
    const standIn = Object.create(ctor.prototype as object) as Record<string | symbol, unknown>;
    const current = this.current;
    for (const { member, where } of scanClass(ctor).actions) {
      standIn[member] = function (...args: unknown[]): unknown {
        const target = current.getStore() as Record<string | symbol, (...a: unknown[]) => unknown> | undefined;
        if (target === undefined) {
          throw new NestToolsError('NEST_SCOPED_TOOL_OUTSIDE_CALL', `${where} belongs to a request-scoped or transient provider: call it through the Tools registry that AgentToolkitModule provides, which resolves its instance.`);
        }
        return target[member]!(...args);
      };
    }
    return standIn;
  }

  /** Runs `call` with its Nest dependencies bound and, for a scoped tool provider, the instance of its context id. */
  async handle(call: ToolCall, next: NextHandler): Promise<ActionResult<unknown>> {
    const plan = this.plans.get(call.tool);
    if (plan === undefined) return next(call);
    let contextId: ContextId | undefined;
    const id = () => (contextId ??= this.contextIdOf(call.context));
    const context = call.context.clone();
    for (const dependency of plan.dependencies) {
      context.bind(dependency.ours, dependency.instance !== undefined ? dependency.instance.value : await this.moduleRef.resolve(dependency.nest, id(), { strict: false }));
    }
    const patched = call.with({ context });
    if (plan.provider === undefined) return next(patched);
    const target = (await this.moduleRef.resolve(plan.provider, id(), { strict: false })) as object;
    return this.current.run(target, () => next(patched));
  }

  /** The Nest side of one `@Inject` token, or nothing when no Nest provider has it (the call's context serves it). */
  private dependency(ours: Token<unknown>): Dependency[] {
    if (ours === ToolContext || ours === AbortSignal) return [];
    const nest = ours instanceof InjectionToken ? nestTokenOf(ours) : (ours as NestToken);
    if (nest === undefined) return [];
    let scope: number;
    try {
      scope = this.moduleRef.introspect(nest as string).scope as number;
    } catch {
      // Not a Nest provider (UnknownElementException): the per-call ToolContext serves this token.
      return [];
    }
    if (scope !== SINGLETON) return [{ ours, nest }];
    return [{ ours, nest, instance: { value: this.moduleRef.get(nest as string, { strict: false }) } }];
  }

  /**
   * The call's Nest context id: the one provided, the request's, or a new one. A request Nest's router has not given
   * a context id yet gets one attached the way the router does, so later calls (and the router) share it.
   */
  private contextIdOf(context: ToolContext): ContextId {
    const given = context.resolve(NEST_CONTEXT_ID);
    if (given !== undefined) return given;
    const request = context.resolve(NEST_REQUEST) as Record<string | symbol, unknown> | undefined;
    if (request === undefined) return ContextIdFactory.create();
    const id = ContextIdFactory.getByRequest(request);
    if (request[REQUEST_CONTEXT_ID] === undefined) {
      Object.defineProperty(request, REQUEST_CONTEXT_ID, { value: id, enumerable: false, writable: false, configurable: false });
      this.moduleRef.registerRequestByContextId(request, id);
    }
    return id;
  }
}
