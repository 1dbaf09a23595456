import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../schema/plain-copy';
import type { ToolIcon } from '../../tool/action-options';
import { Tool, type Invocation } from '../../tool/tool';
import { ToolDefinitionError } from '../../tool/tool-definition-error';
import { ToolEffect } from '../../tool/tool-effect';

/** What a remote tool needs from its connection: one `tools/call`, turned into the tool's output. */
export type RemoteCall = (remoteName: string, args: Record<string, unknown>, invocation: Invocation) => Promise<unknown>;

/** How one remote tool is registered: its server, local name, trust and the call it makes. */
export interface RemoteToolInit {
  readonly serverName: string;
  readonly localName: string;
  readonly group: string;
  readonly trustReadOnlyHint: boolean;
  readonly fingerprint: string;
  readonly call: RemoteCall;
}

/**
 * A tool of an MCP server, registered in a `Tools` registry (`isMcp`, `mcpName` = the server's name, so
 * `mcp__<server>` permission rules cover it). Built from the server's `tools/list` entry:
 *
 * - `inputSchema` is the params schema (validated locally before each call, rendered in every provider format like
 *   any other); a schema strict provider formats cannot express makes the tool non-strict (`strict: false`);
 * - `outputSchema` is the `returns` schema: `structuredContent` is checked against it;
 * - `title` (or `annotations.title`), `icons` and `_meta` are kept as the tool's `title`, `icons` and `meta`;
 * - annotations become traits: `openWorldHint` (true unless the server says false, as the specification defaults it)
 *   gives the `NETWORK` effect; `isReadOnly` follows `readOnlyHint` only when the host trusts the server
 *   (`trustReadOnlyHint`), since hints from a server are not guaranteed to be faithful (MCP specification 2025-06-18,
 *   "Tool annotations"); otherwise the tool is not read-only and the permission engine asks before it runs.
 *
 * The definition the server sent is kept frozen as `definition`, with its `fingerprint`.
 */
export class McpRemoteTool extends Tool {
  /** The server's name for the tool (what `tools/call` sends). */
  readonly remoteName: string;
  /** The MCP server's name (also `mcpName`). */
  readonly serverName: string;
  /** The definition as listed by the server. */
  readonly definition: Readonly<McpToolDefinition>;
  /** The SHA-256 of the definition's canonical JSON (see `toolFingerprint`). */
  readonly fingerprint: string;

  /** @throws ToolDefinitionError when the server's definition cannot be a tool here (its schema is not usable JSON Schema). */
  constructor(definition: McpToolDefinition, init: RemoteToolInit, strict = true) {
    const annotations = definition.annotations ?? {};
    const readOnly = init.trustReadOnlyHint && annotations.readOnlyHint === true;
    const title = definition.title ?? annotations.title;
    const meta = isPlainObject(definition._meta) ? definition._meta : undefined;
    const icons = Array.isArray(definition.icons) ? (definition.icons.filter((icon) => typeof icon?.src === 'string' && icon.src !== '') as ToolIcon[]) : undefined;
    const remoteName = definition.name;
    super({
      name: init.localName,
      description: definition.description ?? title ?? `Tool '${remoteName}' of MCP server '${init.serverName}'.`,
      group: init.group,
      source: `MCP server '${init.serverName}' tool '${remoteName}'`,
      params: definition.inputSchema as never,
      options: {
        effects: annotations.openWorldHint === false ? [] : [ToolEffect.NETWORK],
        metadata: { mcpServer: init.serverName, mcpTool: remoteName, fingerprint: init.fingerprint, annotations: { ...annotations } },
        strict,
        ...(definition.outputSchema === undefined ? {} : { returns: definition.outputSchema as never }),
        ...(title === undefined || title.trim() === '' ? {} : { title }),
        ...(icons === undefined ? {} : { icons }),
        ...(meta === undefined ? {} : { meta }),
      },
      approval: false,
      body: (params, invocation) => init.call(remoteName, params, invocation),
      traits: { isMcp: true, mcpName: init.serverName, isReadOnly: readOnly, isConcurrencySafe: readOnly },
    });
    this.remoteName = remoteName;
    this.serverName = init.serverName;
    this.definition = Object.freeze(definition);
    this.fingerprint = init.fingerprint;
  }

  /**
   * Checks a call's output against the tool's `returns` schema (the server's `outputSchema`), as the pipeline does
   * for a tool that does not stream: passes it through, or throws a `CoreError` `INVALID_TOOL_OUTPUT`. Used for the
   * output of a call whose progress was streamed.
   */
  checkResult(value: unknown): unknown {
    return this.checkOutput(value);
  }

  /**
   * The tool for `definition`: strict when strict provider formats can express its schema, else non-strict.
   * @throws ToolDefinitionError when the schema cannot be used at all.
   */
  static from(definition: McpToolDefinition, init: RemoteToolInit): McpRemoteTool {
    try {
      return new McpRemoteTool(definition, init, true);
    } catch (error) {
      if (!(error instanceof ToolDefinitionError)) throw error;
      return new McpRemoteTool(definition, init, false);
    }
  }
}
