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
 * The default {@link McpUsedStates}: one process's memory. Expired ids are dropped as new ones are claimed, oldest
 * claim first, so it holds at most the approvals answered within the state's lifetime. Shared by instances of
 * different lifetimes, a short-lived id may stay until the longer-lived ids claimed before it expire: memory only,
 * since an expired state is refused by its signed expiry whatever the store holds.
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

/**
 * @internal What a call's `requestState` carries: the state's id, the tool, the hash of its arguments, the expiry;
 * whether the user approved the call in an earlier round, the answers of the earlier rounds by key, and the keys
 * this round asked.
 */
export interface RoundsPayload {
  readonly id: string;
  readonly tool: string;
  readonly args: string;
  readonly exp: number;
  readonly approved?: true;
  readonly answers?: Record<string, unknown>;
  readonly asked?: readonly string[];
}

/** @internal What one round hands on to the next (see {@link RoundsPayload}). */
export interface RoundsCarry {
  readonly approved?: boolean | undefined;
  readonly answers?: Record<string, unknown> | undefined;
  readonly asked: readonly string[];
}

/** Why an echoed state was refused (a failed result says it to the model). */
export type ApprovalStateRefusal = 'invalid' | 'foreign' | 'replayed';

const DEFAULT_TTL_SECONDS = 600;
let processKey: Uint8Array | undefined;
let processUsedStates: McpUsedStates | undefined;

/**
 * Mints and checks the `requestState` a served tool call hands a 2026-07-28 client with an `input_required` result
 * (the approval question, and the tool's own questions through `McpRequest`): signed with the SDK's
 * `createRequestStateCodec` (HMAC-SHA-256, expiry, bound to the method and the authenticated client's
 * `authInfo.clientId`: `ServeHttpOptions.auth`; without authentication every caller is the same client), bound to the
 * exact call (the tool's name and a SHA-256 of its arguments' JSON) and single-use ({@link McpUsedStates}).
 *
 * Pass one instance to both the `McpServer` and `serveTools`, so a forged, tampered, expired or another client's
 * state is answered with the JSON-RPC error -32602 (the SDK's `requestState.verify` hook, which runs before any
 * handler):
 *
 * ```ts
 * const states = new McpRequestStates({ key: process.env.MCP_STATE_KEY });
 * const server = new McpServer({ name: 'billing', version: '1.0.0' }, { requestState: { verify: states.verify } });
 * serveTools(server, tools, { approvalState: states });
 * ```
 *
 * Without the hook the tool refuses such a state itself, with a failed result (the tool does not run). A state for
 * another call (other tool or arguments) or one used before is always refused with a failed result: the hook does
 * not see the call's arguments.
 */
export class McpRequestStates {
  private readonly codec: RequestStateCodec<RoundsPayload>;
  private readonly ttlMs: number;
  private readonly usedStates: McpUsedStates;
  /** Payloads this instance's {@link verify} hook decoded: only these are taken as verified (another instance's, with another key, are not). */
  private readonly verified = new WeakSet<object>();

  /** @throws McpServerError `MCP_HTTP_OPTIONS` for a key shorter than 32 bytes or a ttl that is not positive. */
  constructor(options: McpApprovalStateOptions = {}) {
    const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new McpServerError('MCP_HTTP_OPTIONS', `approvalState.ttlSeconds must be a positive number of seconds (got ${String(ttlSeconds)}).`);
    const key = options.key ?? (processKey ??= new Uint8Array(randomBytes(32)));
    const bytes = typeof key === 'string' ? Buffer.byteLength(key) : key.byteLength;
    if (bytes < 32) throw new McpServerError('MCP_HTTP_OPTIONS', `approvalState.key must be at least 32 bytes (got ${bytes}); generate one with crypto.randomBytes(32).`);
    this.ttlMs = ttlSeconds * 1000;
    this.usedStates = options.usedStates ?? (processUsedStates ??= new McpMemoryUsedStates());
    this.codec = serverSdk().createRequestStateCodec<RoundsPayload>({ key, ttlSeconds, bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}` });
  }

  /**
   * The SDK's `requestState.verify` hook (`new McpServer(info, { requestState: { verify: states.verify } })`): checks
   * the signature, the expiry and the client binding of an echoed state before the handler runs.
   * @returns the state's payload, which the served tool then checks against the call and uses up.
   * @throws the codec's error for a forged, tampered, malformed, expired or another client's state (the SDK answers
   * it with the JSON-RPC error -32602 "Invalid or expired requestState").
   */
  readonly verify = async (state: string, ctx: ServerContext): Promise<RoundsPayload> => {
    const payload = await this.codec.verify(state, ctx);
    this.verified.add(payload);
    return payload;
  };

  /** @internal The state to hand out with a round's questions of `tool` called with `args`. */
  mint(tool: string, args: unknown, ctx: ServerContext, carry: RoundsCarry = { asked: [] }): Promise<string> {
    const answers = carry.answers !== undefined && Object.keys(carry.answers).length > 0 ? { answers: carry.answers } : {};
    return this.codec.mint({ id: randomUUID(), tool, args: argsHash(args), exp: Date.now() + this.ttlMs, ...(carry.approved === true ? { approved: true } : {}), ...answers, asked: [...carry.asked] }, ctx);
  }

  /**
   * @internal Checks an echoed state (the wire string, or the payload the {@link verify} hook decoded) against the
   * call it came back with and uses it up.
   * @returns the payload when the call may go on, else why not.
   */
  async open(state: unknown, tool: string, args: unknown, ctx: ServerContext): Promise<RoundsPayload | ApprovalStateRefusal> {
    let payload: RoundsPayload;
    if (typeof state === 'object' && state !== null && this.verified.has(state)) payload = state as RoundsPayload;
    else if (typeof state !== 'string') return 'invalid';
    else {
      try {
        payload = await this.codec.verify(state, ctx);
      } catch {
        return 'invalid'; // forged, expired, malformed or minted for another client
      }
    }
    if (payload.tool !== tool || payload.args !== argsHash(args)) return 'foreign';
    return (await this.usedStates.claim(payload.id, payload.exp)) ? payload : 'replayed';
  }

  /** @internal {@link open} without the payload. @returns undefined when the call may go on, else why not. */
  async check(state: unknown, tool: string, args: unknown, ctx: ServerContext): Promise<ApprovalStateRefusal | undefined> {
    const opened = await this.open(state, tool, args, ctx);
    return typeof opened === 'string' ? opened : undefined;
  }
}

function argsHash(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args ?? {}) ?? 'null').digest('base64url');
}
