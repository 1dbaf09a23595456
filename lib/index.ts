/**
 * agenttoolkit: define a tool for LLM agents once and expose it to every provider. Named exports of the core only;
 * optional areas have their own entry points (`agenttoolkit/workspace`, `agenttoolkit/sandbox`, ...).
 */
export { AgentToolkitError, type AgentToolkitErrorCode } from './errors';
export { Action, type ParamsMethod } from './decorators/action';
export { Param, type ParamOptions } from './decorators/param';
export { Inject, type InjectOptions } from './decorators/inject';
export { RequiresApproval } from './decorators/requires-approval';
export { ToolGroup } from './decorators/tool-group';
export { InjectionToken, type ClassToken, type Token } from './context/injection-token';
export { ToolContext, MissingDependencyError } from './context/tool-context';
export { Availability, provided, requires } from './context/availability';
export { ContextDescription, descriptionFromContext, type DescriptionSource } from './context/context-description';
export { ActionResult, type ActionResultClass, type ActionResultInit } from './result';
export { ToolEffect } from './tool/tool-effect';
export { Tool, type Invocation, type ParsedArgs, type ToolBody, type ToolSpec } from './tool/tool';
export { ToolDefinitionError } from './tool/tool-definition-error';
export type { ActionOptions } from './tool/action-options';
export type { ActionFunction, FunctionActionOptions, TokenValue } from './tool/function-tool-options';
export type { FormatEntry, ToolFormat } from './tool/tool-format';
export type { JsonSchema } from './schema/json-schema';
export { ToolCall, type ToolCallInit } from './pipeline/tool-call';
export { compose, type NextHandler, type ToolMiddleware } from './pipeline/middleware';
export { TimeoutMiddleware } from './pipeline/timeout';
export { consoleLogger, type ToolLogger } from './pipeline/logger';
export { Tools, type ExecuteOptions, type ToolsOptions } from './tools';
export { ToolSchemaFormat } from './providers/tool-schema-format';
export { openAIChatFormat, openAIChatToolCalls, openAIChatToolMessage, type OpenAIChatTool, type OpenAIChatAssistantMessage } from './providers/openai-chat';
export { anthropicFormat, anthropicToolUses, anthropicToolResult, type AnthropicTool, type AnthropicMessage } from './providers/anthropic';
export type { ToolCallRequest } from './providers/tool-call-request';
export type { Static, TObject, TSchema } from '@sinclair/typebox';
