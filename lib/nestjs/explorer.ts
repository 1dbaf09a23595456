import type { InjectionToken as NestToken, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import { scanClass } from '../metadata/scanner';
import type { Tools } from '../tools';
import type { InstanceNaming } from '../tool/class-tools';
import { NestToolsError } from './errors';
import type { AgentToolkitModuleOptions, FeatureTool } from './options';
import type { NestToolResolver } from './resolver';

type Class = abstract new (...args: never[]) => unknown;

/** What one `AgentToolkitModule.forFeature(...)` call declares; found among the providers by discovery. */
export class FeatureTools {
  constructor(readonly entries: readonly FeatureTool[]) {}
}

/** The part of Nest's `InstanceWrapper` discovery reads. */
interface Wrapper {
  readonly token: NestToken;
  readonly instance: unknown;
  readonly metatype: unknown;
  readonly inject?: unknown;
  readonly isTransient: boolean;
  isDependencyTreeStatic(): boolean;
}

/**
 * Registers the tools of the application's providers when the module initializes, and closes the configured
 * sandboxes and skills registries when the application shuts down.
 */
export class ToolExplorer implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly tools: Tools,
    private readonly resolver: NestToolResolver,
    private readonly options: AgentToolkitModuleOptions,
  ) {}

  /**
   * Finds the providers with `@Action` methods (every one, or only those named by `forFeature` with
   * `discover: 'feature'`) and registers their tools, each provider once.
   * @throws NestToolsError `NEST_FEATURE_UNKNOWN` when `forFeature` names a provider no module provides.
   * @throws ToolDefinitionError when a tool cannot be registered (a name taken, a bad definition).
   */
  onModuleInit(): void {
    const wrappers = this.discovery.getProviders() as unknown as Wrapper[];
    const naming = new Map<NestToken, InstanceNaming>();
    for (const wrapper of wrappers) {
      if (wrapper.instance instanceof FeatureTools) for (const entry of wrapper.instance.entries) naming.set(entry.provider, entry);
    }
    const found = new Set<NestToken>();
    const seen = new Set<unknown>();
    for (const wrapper of wrappers) {
      const scoped = wrapper.isTransient || !wrapper.isDependencyTreeStatic();
      const ctor = toolClass(wrapper, scoped);
      if (ctor === undefined) continue;
      const features = naming.get(wrapper.token);
      if (this.options.discover === 'feature' && features === undefined) continue;
      const key = scoped ? wrapper.token : wrapper.instance;
      if (seen.has(key)) continue;
      seen.add(key);
      found.add(wrapper.token);
      const instance = scoped ? this.resolver.standIn(ctor) : (wrapper.instance as object);
      const before = new Set(this.tools.list());
      this.tools.register(features === undefined ? instance : { instance, prefix: features.prefix, names: features.names, group: features.group });
      this.resolver.plan(this.tools.list().filter((tool) => !before.has(tool)), ctor, scoped ? wrapper.token : undefined);
    }
    for (const token of naming.keys()) {
      if (!found.has(token)) {
        throw new NestToolsError('NEST_FEATURE_UNKNOWN', `AgentToolkitModule.forFeature names ${describe(token)}, which no module provides as a provider with @Action methods. Add it to the providers of the module that imports forFeature.`);
      }
    }
  }

  /** Closes the sandboxes, then the skills registries; a close that fails is logged and the others still run. */
  async onApplicationShutdown(): Promise<void> {
    for (const closeable of [...(this.options.sandboxes ?? []), ...(this.options.skills ?? [])]) {
      try {
        await closeable.close();
      } catch (error) {
        this.tools.logger.error('AgentToolkitModule: closing a sandbox or skills registry on shutdown failed', { stack: (error as Error | null)?.stack });
      }
    }
  }
}

/**
 * The class whose `@Action` methods a provider's tools come from, or undefined when it has none. A singleton's class
 * is its instance's; a request-scoped or transient provider must be a class provider (a factory's class is not known
 * before it runs).
 */
function toolClass(wrapper: Wrapper, scoped: boolean): Class | undefined {
  let ctor: unknown;
  if (scoped) ctor = wrapper.inject ? undefined : wrapper.metatype;
  else if (typeof wrapper.instance === 'object' && wrapper.instance !== null) ctor = wrapper.instance.constructor;
  if (typeof ctor !== 'function' || ctor === Object) return undefined;
  return scanClass(ctor as Class).actions.length > 0 ? (ctor as Class) : undefined;
}

function describe(token: NestToken): string {
  return typeof token === 'function' ? token.name : String(token);
}
