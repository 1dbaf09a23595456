import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, ModuleRef } from '@nestjs/core';
import { Tools } from '../tools';
import { approvalStep } from './approval-step';
import { FeatureTools, ToolExplorer } from './explorer';
import type { AgentToolkitModuleAsyncOptions, AgentToolkitModuleOptions, FeatureTool } from './options';
import { NestToolResolver } from './resolver';
import { AGENT_TOOLKIT_OPTIONS } from './tokens';

/** The providers every root module has beside its options. */
const ROOT_PROVIDERS: Provider[] = [
  { provide: NestToolResolver, useFactory: (moduleRef: ModuleRef) => new NestToolResolver(moduleRef), inject: [ModuleRef] },
  {
    provide: Tools,
    useFactory: (options: AgentToolkitModuleOptions, resolver: NestToolResolver) =>
      new Tools({
        context: options.context,
        resultType: options.resultType,
        logger: options.logger,
        formats: options.formats,
        middleware: [approvalStep(options.approve), ...(options.middleware ?? []), resolver],
      }),
    inject: [AGENT_TOOLKIT_OPTIONS, NestToolResolver],
  },
  {
    provide: ToolExplorer,
    useFactory: (discovery: DiscoveryService, tools: Tools, resolver: NestToolResolver, options: AgentToolkitModuleOptions) => new ToolExplorer(discovery, tools, resolver, options),
    inject: [DiscoveryService, Tools, NestToolResolver, AGENT_TOOLKIT_OPTIONS],
  },
];

/**
 * The NestJS module of agenttoolkit. `forRoot` (once, in the application's root module) provides a `Tools` registry
 * to the whole application (inject it by its class, `Tools`), registers the tools of every provider with `@Action`
 * methods when the module initializes, resolves the `@Inject` parameters of tool methods through Nest's container
 * and closes the configured sandboxes and skills registries on shutdown. Feature modules name their tool providers,
 * with their tool names and group, through `forFeature`. See docs/frameworks/nestjs.md.
 */
@Module({})
export class AgentToolkitModule {
  /** The root module, global, configured with `options`. */
  static forRoot(options: AgentToolkitModuleOptions = {}): DynamicModule {
    return root([{ provide: AGENT_TOOLKIT_OPTIONS, useValue: options }], []);
  }

  /** The root module, global, with its options built by a factory that Nest injects (`imports`, `inject`, `useFactory`). */
  static forRootAsync(options: AgentToolkitModuleAsyncOptions): DynamicModule {
    return root([{ provide: AGENT_TOOLKIT_OPTIONS, useFactory: options.useFactory as (...args: unknown[]) => unknown, inject: options.inject ?? [] }], options.imports ?? []);
  }

  /**
   * Names tool providers of a feature module (which provides them itself) with the names and group of their tools:
   * `AgentToolkitModule.forFeature([BillingTools, { provider: ReportTools, prefix: 'reports_' }])`. With the root's
   * `discover: 'feature'`, only providers named here become tools.
   */
  static forFeature(tools: ReadonlyArray<FeatureTool['provider'] | FeatureTool>): DynamicModule {
    const entries = tools.map((entry): FeatureTool => (isFeatureTool(entry) ? entry : { provider: entry }));
    return { module: AgentToolkitFeatureModule, providers: [{ provide: Symbol('agenttoolkit:feature'), useValue: new FeatureTools(entries) }] };
  }
}

/** The module `forFeature` returns: it carries the feature's declarations only. */
@Module({})
export class AgentToolkitFeatureModule {}

function root(options: Provider[], imports: NonNullable<DynamicModule['imports']>): DynamicModule {
  return { module: AgentToolkitModule, global: true, imports: [DiscoveryModule, ...imports], providers: [...options, ...ROOT_PROVIDERS], exports: [Tools, AGENT_TOOLKIT_OPTIONS] };
}

function isFeatureTool(entry: FeatureTool['provider'] | FeatureTool): entry is FeatureTool {
  return typeof entry === 'object' && entry !== null && 'provider' in entry;
}
