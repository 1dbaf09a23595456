/**
 * `agenttoolkit/nestjs`: the NestJS module. Needs `@nestjs/common` and `@nestjs/core` 12 (optional peer
 * dependencies, ES modules loaded through Node's `require(esm)`, Node 20.19 or later). See docs/frameworks/nestjs.md.
 */
export { AgentToolkitFeatureModule, AgentToolkitModule } from './module';
export type { AgentToolkitModuleAsyncOptions, AgentToolkitModuleOptions, Closeable, FeatureTool } from './options';
export { AGENT_TOOLKIT_OPTIONS, NEST_CONTEXT_ID, NEST_REQUEST, nestToken } from './tokens';
export { NestToolsError, type NestToolsErrorCode } from './errors';
