import type { InjectionToken as NestToken, ModuleMetadata, OptionalFactoryDependency } from '@nestjs/common';
import type { ToolCall } from '../pipeline/tool-call';
import type { ActionResult } from '../result';
import type { InstanceNaming } from '../tool/class-tools';
import type { ToolsOptions } from '../tools';

/**
 * Anything the module closes when the application shuts down: a `Sandbox` (`UnsafeLocalSandbox`,
 * `BubblewrapSandbox`, `DockerSandbox`), a `Skills` registry (its chokidar watcher), or an object of your own with a
 * `close()` method.
 */
export interface Closeable {
  /** Releases what the object holds; awaited on shutdown. */
  close(): Promise<void> | void;
}

/**
 * Options of `AgentToolkitModule.forRoot(...)` (or what the `forRootAsync` factory returns). The fields of
 * `ToolsOptions` (`context`, `middleware`, `resultType`, `logger`, `formats`) configure the `Tools` registry the
 * module provides.
 */
export interface AgentToolkitModuleOptions extends ToolsOptions<ActionResult<unknown>> {
  /**
   * Which providers become tools: `'all'` (default) registers every provider of the application that has `@Action`
   * methods; `'feature'` only those named by `AgentToolkitModule.forFeature(...)`.
   */
  discover?: 'all' | 'feature' | undefined;
  /**
   * Asked before a call that needs approval (`@RequiresApproval`, the `requiresApproval` option) runs; resolve
   * `true` to run it. A `false` gives the model a declined result. Without `approve`, such a call is not run and the
   * model gets a "needs approval" failed result (fail closed); pass `() => true` when approval is handled before
   * `execute` (for example by a `PermissionMiddleware` with `ask`).
   */
  approve?: ((call: ToolCall) => boolean | Promise<boolean>) | undefined;
  /** Sandboxes the module closes on application shutdown (`app.close()`), after the registry stops taking calls. */
  sandboxes?: readonly Closeable[] | undefined;
  /** Skills registries whose watchers the module closes on application shutdown (`Skills.close()`). */
  skills?: readonly Closeable[] | undefined;
}

/** Options of `AgentToolkitModule.forRootAsync(...)`: a factory for {@link AgentToolkitModuleOptions} with Nest injection. */
export interface AgentToolkitModuleAsyncOptions {
  /** Modules whose exported providers the factory injects (for example a configuration module). */
  imports?: ModuleMetadata['imports'];
  /** The tokens whose providers are passed to `useFactory`, in order. */
  inject?: Array<NestToken | OptionalFactoryDependency>;
  /** Builds the options; may be async. */
  useFactory: (...args: never[]) => AgentToolkitModuleOptions | Promise<AgentToolkitModuleOptions>;
}

/**
 * One provider named by `AgentToolkitModule.forFeature(...)`, with the names and group of its tools: `{ provider:
 * BillingTools, prefix: 'billing_' }`. `provider` is the provider's Nest token (its class for a class provider).
 */
export interface FeatureTool extends InstanceNaming {
  /** The provider's Nest token: its class for a class provider, else the string or symbol it is provided under. */
  readonly provider: NestToken;
}
