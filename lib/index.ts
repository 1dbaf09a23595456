/**
 * agenttoolkit: define a tool for LLM agents once and expose it to every provider. The root holds what defining and
 * executing tools needs; each area has its own entry point (`agenttoolkit/providers/openai`,
 * `agenttoolkit/permissions`, `agenttoolkit/workspace`, ...), and every public name is exported by exactly one of them
 * (the entry map in docs/README.md).
 */
export { AgentToolkitError, CoreError, ToolError, type AgentToolkitErrorCode, type CoreErrorCode } from './errors';
export { Action, type ParamsMethod } from './decorators/action';
export { Param, type ParamOptions } from './decorators/param';
export { Inject, type InjectOptions } from './decorators/inject';
export { RequiresApproval, type ApprovalDecorator, type ApprovalFits } from './decorators/requires-approval';
export { ToolGroup } from './decorators/tool-group';
export { InjectionToken, type ClassToken, type Token } from './context/injection-token';
export { ToolContext, MissingDependencyError } from './context/tool-context';
export { Availability, provided, requires } from './context/availability';
export { ContextDescription, descriptionFromContext, type DescriptionSource } from './context/context-description';
export { ActionResult, isActionResult, type ActionResultClass, type ActionResultInit } from './result';
export { ToolEffect } from './tool/tool-effect';
export { Tool, type Invocation, type ParsedArgs, type ToolBody, type ToolSpec } from './tool/tool';
export { ToolDefinitionError } from './tool/tool-definition-error';
export type { ActionOptions } from './tool/action-options';
export type { ActionFunction, FunctionActionOptions, TokenValue } from './tool/function-tool-options';
export type { FormatEntry, ToolFormat } from './tool/tool-format';
export type { OfferedTools, ToolSession } from './tool/tool-session';
export type { JsonSchema } from './schema/json-schema';
export { ToolCall, type ToolCallInit } from './pipeline/tool-call';
export { compose, type NextHandler, type ToolMiddleware } from './pipeline/middleware';
export type { CallStart, CallTrace, ToolTelemetry, TraceAttributes } from './pipeline/telemetry';
export { TimeoutMiddleware } from './pipeline/timeout';
export { consoleLogger, type ToolLogger } from './pipeline/logger';
export { Tools, type ExecuteOptions, type Registration, type ToolsOptions } from './tools';
export type { InstanceNaming } from './tool/class-tools';
export { ToolSchemaFormat } from './providers/tool-schema-format';
export { executeToolCall, executeToolCalls, type ToolCallOptions, type ToolCallOutcome, type ToolCallsOptions } from './providers/execute-tool-calls';
export type { ObjectParameters, JsonObject } from './providers/object-parameters';
export type { ToolCallRequest } from './providers/tool-call-request';
export type { ToolSelection } from './providers/tool-selection';
export { toStrictSchema, STRICT_FORMATS } from './schema/strict-schema';
export type { Defaulted, ObjectSchema, ParamsSchema, Schema, Static, StaticInput, TypeBox1Static } from './schema/schema-types';
export type { StandardJSONSchemaV1 } from './schema/standard-schema';
export { ToolChunk, ToolResultState, type ContentBlock, type DataBlock, type DataSource, type TextBlock, type ToolChunkInit } from './streaming/tool-chunk';
export { ToolResponse, type FinalState } from './streaming/tool-response';
export { composeChunkMiddleware, type ChunkHandler, type ToolChunkMiddleware } from './streaming/tool-chunk-middleware';
export { collectChunks, toChunks, valueToChunk } from './streaming/to-chunks';
export type { ToolStream } from './streaming/tool-stream';
export type { ToolPermissionHooks, ToolTraitsInit } from './tool/tool-traits';
export type { ToolInfo } from './tool/tool-info';
export { ToolBase, type ToolDefinition } from './tool/tool-base';
export { FunctionTool, type FunctionToolOptions } from './tool/function-tool';
export { AGENT_STATE, type AgentState, type ToolInvocation } from './tool/agent-state';
export { ExternalExecutionRequest, isExternalRequest } from './tool/external-execution';
export { EXTERNAL_EXECUTION_KEY } from './tool/external-chunk';
export { BASIC_GROUP, RESET_TOOLS, type ToolGroupInfo } from './tool/tool-groups';
export { approvalKey, approvalOf, type ApprovableCall, type CallApproval } from './tool/call-approval';
export { runToolCalls, type BatchCall, type RanCall, type RunToolCallsOptions, type RunToolCallsOutcome, type WaitingCall } from './tool/call-batching';
export { BLANK_FAILURE_TEXT } from './result';
export { BinaryContent, isBinaryContent, type BinaryJson, type Bytes } from './media/binary-content';
export { ResourceLink, LinkedContent, isResourceLink, isLinkedContent, type ResourceLinkInit } from './media/resource-link';
export {
  OUTPUT_FOLDER, OUTPUT_URI_PREFIX, READ_OUTPUT_TOOL, DEFAULT_MAX_SAVED_CHARS, STREAM_CHARS_PER_TOKEN,
  type OutputBudget, type OutputWorkspace,
} from './budget/output-budget';
export { OutputBudgets } from './budget/output-budgets';
export { savedOutputId } from './budget/saved-output';
export { detectMediaType, OCTET_STREAM } from './media/media-type';
export type { ToolIcon } from './tool/action-options';
export type { ToolExtras } from './tool/tool-extras';
export { isContentBlocks } from './streaming/tool-response';
