/** The built-in file tools (`Read`, `Write`, `Edit`, `Glob`) and the credential-path matcher. See docs/builtins.md. */
export { ReadTool, ReadInput, READ_MAX_LINES, READ_MAX_LINE_LENGTH, numberedLines, type ReadParams } from './read-tool';
export { WriteTool, WriteInput, type WriteParams } from './write-tool';
export { EditTool, EditInput, type EditParams } from './edit-tool';
export { GlobTool, GlobInput, GLOB_DEFAULT_LIMIT, GLOB_MAX_LIMIT, type GlobParams } from './glob-tool';
export { fileTools, type FileTools } from './file-tools';
export type { FileToolOptions } from './file-tool-options';
export { CREDENTIAL_DIRECTORIES, CREDENTIAL_FILES, isCredentialPath, isCredentialPathResolved, type CredentialPathOptions } from './credential-paths';
export { FILE_READS_STATE_KEY, type ReadRecord } from './read-records';
export { BuiltinToolError, type BuiltinToolErrorCode } from './errors';
