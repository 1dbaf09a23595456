/**
 * `agenttoolkit/builtins`: the built-in tools and their building blocks. The file tools (`Read`, `Write`, `Edit`,
 * `Glob`) over any `Workspace`, the task tools over the agent state, and shell analysis on tree-sitter's bash grammar
 * (loaded on first use) with the sound command rule matcher for any shell tool. See docs/builtins.md and
 * docs/shell-analysis.md.
 */
export { analyzeCommand, analyzeCommandSync, type AnalyzeOptions, type ShellDialect, type ShellAnalysis, type ShellFeature, type ShellRedirect, type SimpleCommand } from './shell/analyze-command';
export { allowBlocker, commandMatchesRule, commandRule, compileCommandRule, ruleApplies, type CompiledCommandRule } from './shell/command-rule';
export { loadBashParser, type BashParser } from './shell/bash-parser';
export { ShellAnalysisError, type ShellAnalysisErrorCode } from './shell/shell-error';
export type { ShellWord } from './shell/shell-word';
export { judgeRedirectWrites, type RedirectWriteOptions } from './shell/redirect-writes';
export { checkShellCommand, isReadOnlyCommand, type ShellCheckOptions } from './shell/bash-check';
export { BASH_ENVIRONMENT, GIT_CONFIG_OVERRIDES, type GitConfigOverride } from './shell/bash-environment';
export { ReadTool, ReadInput, READ_MAX_LINES, READ_MAX_LINE_LENGTH, numberedLines, type ReadParams } from './files/read-tool';
export { WriteTool, WriteInput, type WriteParams } from './files/write-tool';
export { EditTool, EditInput, type EditParams } from './files/edit-tool';
export { GlobTool, GlobInput, GLOB_DEFAULT_LIMIT, GLOB_MAX_LIMIT, GLOB_DEFAULT_TIMEOUT_MS, type GlobParams, type GlobToolOptions } from './files/glob-tool';
export { LEFT_OUT_NOTE, type PermissionSource } from './files/rule-exclusions';
export { GrepTool, GrepInput, GREP_DEFAULT_LIMIT, GREP_MAX_LIMIT, GREP_MAX_OUTPUT, GREP_DEFAULT_TIMEOUT_MS, ripgrepPath, type GrepParams, type GrepToolOptions } from './files/grep-tool';
export { ripgrepMount, isContainerWorkspace, SANDBOX_RIPGREP_PATH, CONTAINER_RIPGREP_PATH, type ContainerSearchWorkspace } from './files/ripgrep-backends';
export { fileTools, type FileTools } from './files/file-tools';
export type { FileToolOptions } from './files/file-tool-options';
export { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, holdsCredentialPaths, isCredentialPath, isCredentialPathResolved, PROC_PUBLIC, SYSTEM_CREDENTIAL_PATHS, type CredentialPathOptions } from './files/credential-paths';
export { FILE_READS_STATE_KEY, type ReadRecord } from './files/read-records';
export { BuiltinToolError, type BuiltinToolErrorCode } from './files/errors';
export {
  TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool, taskTools, renderTask,
  TaskCreateInput, TaskGetInput, TaskListInput, TaskUpdateInput,
  type TaskCreateParams, type TaskGetParams, type TaskUpdateParams, type TaskToolOptions,
} from './tasks/task-tools';
export { TaskStore, TASKS_STATE_KEY, type Task, type TaskPatch, type TaskStatus, type TaskMetadataValue } from './tasks/task-store';
export { BashTool, BashInput, bashTool, BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS, BASH_MAX_OUTPUT_CHARS, BASH_OUTPUT_METADATA_KEY, type BashParams, type BashToolOptions } from './shell/bash-tool';
export { ReadToolOutput, ReadToolOutputInput, readToolOutput, READ_OUTPUT_DEFAULT_LIMIT, READ_OUTPUT_MAX_LIMIT, type ReadToolOutputOptions, type ReadToolOutputParams } from './output/read-output-tool';
export { READ_ONLY_PROGRAMS, programGrammar } from './shell/grammar/program-grammars';
export { MAX_RECURSIVE_ENTRIES } from './shell/recursive-reads';
export { WRAPPER_GRAMMARS } from './shell/grammar/wrapper-grammars';
export type { Effect, OperandKind, OperandSpec, OptionSpec, OptionSyntax, OptionValue, ProgramGrammar, RequiredOptions, WrapperGrammar, WrapperRole } from './shell/grammar/grammar-types';
export { GIT_COMMANDS } from './shell/git-commands';
