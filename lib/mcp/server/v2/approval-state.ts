import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { McpServerError } from '../errors';
import { serverSdk } from './sdk-v2';

/**
 * Where the ids of approval states already answered are kept, so one approval runs one call: a client that echoes a
 * `requestState` a second time (a replay) is refused. `claim` is called once per retried call that carries an
 * approval; it must be atomic across the processes that share the store (a fleet behind one URL needs a shared
 * store, for example Redis `SET key 1 NX PXAT expiresAt`).
 */
export interface McpUsedStates {
  /**
   * Marks `id` used until `expiresAtMs` (Unix milliseconds; after it the codec refuses the state anyway, so the store
   * may forget it). @returns true when `id` was not used before (the call may run), false for a replay.
   */
  claim(id: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/**
 * The default {@link McpUsedStates}: one process's memory. Expired ids are dropped as new ones are claimed, so it
 * holds at most the approvals answered within the state's lifetime.
 */
export class McpMemoryUsedStates implements McpUsedStates {
  private readonly used = new Map<string, number>();

  /** @inheritDoc */
  claim(id: string, expiresAtMs: number): boolean {
    const now = Date.now();
    for (const [key, expiry] of this.used) {
      if (expiry > now) break; // insertion order is expiry order for one lifetime
      this.used.delete(key);
    }
    if (this.used.has(id)) return false;
    this.used.set(id, expiresAtMs);
    return true;
  }

  /** How many ids it holds (expired ones not yet dropped included). */
  get size(): number {
    return this.used.size;
  }
}

/** Options of the 2026-07-28 approval round trip; see `ServeToolsOptions.approvalState`. */
export interface McpApprovalStateOptions {
  /**
   * The HMAC key (at least 32 bytes; a string is UTF-8 encoded) that signs the `requestState` of an approval. Every
   * process that may receive the retried call needs the same key. Default: a random key of this process.
   */
  key?: Uint8Array | string | undefined;
  /** How long the user has to answer, in seconds (default 600). */
  ttlSeconds?: number | undefined;
  /** Where answered approvals are remembered (default: one {@link McpMemoryUsedStates} of this process). */
  usedStates?: McpUsedStates | undefined;
}

/** What an approval's `requestState` carries: the state's id, the tool, the hash of its arguments, the expiry. */
interface ApprovalPayload {
  readonly id: string;
  readonly tool: string;
  readonly args: string;
  readonly exp: number;
}

/** Why an echoed approval state was refused (a failed result says it to the model). */
export type ApprovalStateRefusal = 'invalid' | 'foreign' | 'replayed';

const DEFAULT_TTL_SECONDS = 600;
let processKey: Uint8Array | undefined;
let processUsedStates: McpUsedStates | undefined;

/**
 * @internal Mints and checks the `requestState` an approval round trip hands the client: signed with the SDK's
 * `createRequestStateCodec` (HMAC-SHA-256, expiry, bound to the method and the authenticated client), bound to the
 * exact call (the tool's name and a SHA-256 of its arguments' JSON) and single-use ({@link McpUsedStates}).
 */
export class ApprovalStates {
  private readonly codec: RequestStateCodec<ApprovalPayload>;
  private readonly ttlMs: number;
  private readonly usedStates: McpUsedStates;

  /** @throws McpServerError `MCP_HTTP_OPTIONS` for a key shorter than 32 bytes or a ttl that is not positive. */
  constructor(options: McpApprovalStateOptions = {}) {
    const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new McpServerError('MCP_HTTP_OPTIONS', `approvalState.ttlSeconds must be a positive number of seconds (got ${String(ttlSeconds)}).`);
    const key = options.key ?? (processKey ??= new Uint8Array(randomBytes(32)));
    const bytes = typeof key === 'string' ? Buffer.byteLength(key) : key.byteLength;
    if (bytes < 32) throw new McpServerError('MCP_HTTP_OPTIONS', `approvalState.key must be at least 32 bytes (got ${bytes}); generate one with crypto.randomBytes(32).`);
    this.ttlMs = ttlSeconds * 1000;
    this.usedStates = options.usedStates ?? (processUsedStates ??= new McpMemoryUsedStates());
    this.codec = serverSdk().createRequestStateCodec<ApprovalPayload>({ key, ttlSeconds, bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}` });
  }

  /** The state to hand out with the approval question of `tool` called with `args`. */
  mint(tool: string, args: unknown, ctx: ServerContext): Promise<string> {
    return this.codec.mint({ id: randomUUID(), tool, args: argsHash(args), exp: Date.now() + this.ttlMs }, ctx);
  }

  /**
   * Checks an echoed state against the call it came back with and uses it up.
   * @returns undefined when the call may take the user's answer, else why not.
   */
  async check(state: unknown, tool: string, args: unknown, ctx: ServerContext): Promise<ApprovalStateRefusal | undefined> {
    if (typeof state !== 'string') return 'invalid';
    let payload: ApprovalPayload;
    try {
      payload = await this.codec.verify(state, ctx);
    } catch {
      return 'invalid'; // forged, expired, malformed or minted for another client
    }
    if (payload.tool !== tool || payload.args !== argsHash(args)) return 'foreign';
    return (await this.usedStates.claim(payload.id, payload.exp)) ? undefined : 'replayed';
  }
}

function argsHash(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args ?? {}) ?? 'null').digest('base64url');
}
