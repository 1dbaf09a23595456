import { createHash } from 'node:crypto';

/** The longest tool name the registry (and OpenAI, Anthropic) accepts. */
const MAX_NAME = 64;
/** Characters a registered tool name may hold; MCP names may also hold `.` (specification 2025-11-25). */
const NOT_ALLOWED = /[^A-Za-z0-9_-]/g;
/** A server name as it appears in `mcp__<server>__<tool>` and in `mcp__<server>` permission rules. */
export const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/**
 * The registered name of a server's tool: `prefix` + the MCP name, with every character outside `[A-Za-z0-9_-]`
 * replaced by `_`. A name longer than 64 characters is cut and ends in `_` and 8 hex digits of the SHA-256 of the
 * whole name, so two long names that share a beginning stay apart.
 */
export function localToolName(prefix: string, remoteName: string): string {
  const name = prefix + remoteName.replace(NOT_ALLOWED, '_');
  if (name.length <= MAX_NAME) return name;
  const digest = createHash('sha256').update(prefix + remoteName).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${digest}`;
}

/**
 * A fingerprint of a tool definition: the SHA-256 (hex) of its canonical JSON (keys sorted at every depth) over
 * what the model and the host rely on: `name`, `title`, `description`, `inputSchema`, `outputSchema` and
 * `annotations`. Icons and `_meta` are left out: they change neither what the model reads nor what a call does.
 */
export function toolFingerprint(definition: {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return createHash('sha256').update(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations })).digest('hex');
}

/** JSON text with object keys sorted at every depth; `undefined` members are left out, as `JSON.stringify` does. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
