/**
 * What a tool call does to the world, declared by the tool (the `effects` option). Effects let middleware
 * and host policies react to behaviour rather than to tool names. Never part of a model-facing schema.
 */
export enum ToolEffect {
  /** Reads files of the workspace. */
  READS_WORKSPACE = 'reads_workspace',
  /** Creates, changes or deletes files of the workspace. */
  WRITES_WORKSPACE = 'writes_workspace',
  /** Talks to the network. */
  NETWORK = 'network',
  /** Starts processes. */
  SPAWNS_PROCESS = 'spawns_process',
}
