import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { CoreError } from '../errors';
import type { CallAnswer } from './run-program';

/** One nested call of a paused run, in call order: the tool, a hash of its arguments, and its answer or its id. */
export interface LedgerEntry {
  readonly name: string;
  /** SHA-256 (base64url) of the arguments' JSON text as the program sent it. */
  readonly args: string;
  /** What the program received; absent for a call that waits for the host's approval. */
  readonly answer?: CallAnswer;
  /** A waiting call's id, as `start` reported it: the key of its answer in the per-call form of `resume.approved`. */
  readonly id?: string;
}

/** What a ledger carries, signed: its id, the program's hash, the tool's name, the calls, and the expiry (Unix ms). */
export interface LedgerPayload {
  readonly v: 1;
  readonly id: string;
  readonly code: string;
  readonly tool: string;
  readonly calls: readonly LedgerEntry[];
  readonly exp: number;
}

/** Why a ledger was refused (the run fails with it, and nothing runs). */
export type LedgerRefusal = 'invalid' | 'expired' | 'foreign' | 'replayed';

/**
 * Where the ids of ledgers already resumed are kept, so one approval runs its call once: a ledger resumed a second
 * time is refused. `claim` must be atomic across the processes that share the store.
 */
export interface CodeModeUsedLedgers {
  /** Marks `id` used until `expiresAtMs` (Unix ms). @returns true when `id` was not used before, false for a replay. */
  claim(id: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** The default {@link CodeModeUsedLedgers}: one process's memory, expired ids dropped as new ones are claimed. */
export class MemoryUsedLedgers implements CodeModeUsedLedgers {
  private readonly used = new Map<string, number>();

  /** @inheritDoc */
  claim(id: string, expiresAtMs: number): boolean {
    const now = Date.now();
    for (const [key, expiry] of this.used) if (expiry <= now) this.used.delete(key);
    if (this.used.has(id)) return false;
    this.used.set(id, expiresAtMs);
    return true;
  }
}

let processKey: Buffer | undefined;
let processUsed: CodeModeUsedLedgers | undefined;

/** SHA-256 (base64url) of a text: how a ledger names the program and each call's arguments. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * Signs and checks ledgers: `base64url(payload JSON) "." base64url(HMAC-SHA-256(key, that text))`, the key at least
 * 32 bytes (default: a random key of this process, so a ledger resumes only in the process that made it).
 */
export class LedgerCodec {
  private readonly key: Buffer;
  readonly used: CodeModeUsedLedgers;

  /** @throws CoreError `INVALID_OPTION` for a key shorter than 32 bytes. */
  constructor(key: Uint8Array | string | undefined, used: CodeModeUsedLedgers | undefined) {
    const bytes = key === undefined ? (processKey ??= randomBytes(32)) : Buffer.from(typeof key === 'string' ? Buffer.from(key, 'utf8') : key);
    if (bytes.byteLength < 32) throw new CoreError('INVALID_OPTION', `CodeMode ledgerKey must be at least 32 bytes (got ${bytes.byteLength}); generate one with crypto.randomBytes(32).`);
    this.key = bytes;
    this.used = used ?? (processUsed ??= new MemoryUsedLedgers());
  }

  /** A new ledger's payload, with a fresh id. */
  payload(code: string, tool: string, calls: readonly LedgerEntry[], ttlMs: number): LedgerPayload {
    return { v: 1, id: randomUUID(), code: digest(code), tool, calls, exp: Date.now() + ttlMs };
  }

  sign(payload: LedgerPayload): string {
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The payload of `ledger` when it is signed with this key, unexpired and made for `code` and `tool`; else why not.
   * It is not used up yet: {@link claim} does that.
   */
  verify(ledger: unknown, code: string, tool: string): LedgerPayload | Exclude<LedgerRefusal, 'replayed'> {
    if (typeof ledger !== 'string') return 'invalid';
    const [body, mac, extra] = ledger.split('.');
    if (body === undefined || mac === undefined || extra !== undefined) return 'invalid';
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    let payload: LedgerPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LedgerPayload;
    } catch {
      return 'invalid';
    }
    if (payload === null || typeof payload !== 'object' || payload.v !== 1 || !Array.isArray(payload.calls)) return 'invalid';
    if (!(payload.exp > Date.now())) return 'expired';
    if (payload.code !== digest(code) || payload.tool !== tool) return 'foreign';
    return payload;
  }

  /** Uses up a verified ledger. @returns false when it was resumed before (a replay). */
  async claim(payload: LedgerPayload): Promise<boolean> {
    return (await this.used.claim(payload.id, payload.exp)) === true;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
