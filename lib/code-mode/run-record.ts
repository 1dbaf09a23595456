import { digest, type LedgerEntry } from './ledger';
import type { CallAnswer } from './run-program';

/** What to do with one nested call of a run (see {@link RunRecord.plan}). */
export type CallPlan =
  | { readonly kind: 'live' }
  | { readonly kind: 'recorded'; readonly answer: CallAnswer }
  | { readonly kind: 'answered'; readonly id: string | undefined }
  | { readonly kind: 'held' }
  | { readonly kind: 'diverged' };

interface Slot {
  name: string;
  /** The call's arguments as the program sent them (JSON text); hashed only for a ledger. */
  args: string;
  answer?: CallAnswer;
  /** The id of a call that waits for a late approval. */
  pending?: string;
}

/**
 * The record of one run's nested calls, for late approvals: each call made before the run started to pause gets a
 * slot (its answer once it settles, or `pending` when the host will answer its approval later); a call made after is
 * held (never answered, never run). Replaying a ledger, call n must be the ledger's call n (same tool, same arguments):
 * a recorded one gets its recorded answer without running, a pending one runs with the host's answer, and anything
 * else is a divergence that fails the run.
 */
export class RunRecord {
  private readonly slots: Slot[] = [];
  private pauseAt: number | undefined;
  /** The 1-based index of the first call that did not match the ledger, once one did not. */
  diverged: { index: number; name: string } | undefined;

  constructor(private readonly ledger: readonly LedgerEntry[] | undefined) {}

  /** Whether some call waits for a late approval: the run ends once the calls before the pause have settled. */
  get pausing(): boolean {
    return this.pauseAt !== undefined;
  }

  /** How many calls the ledger being replayed holds (0 without one). */
  get recorded(): number {
    return this.ledger?.length ?? 0;
  }

  /** The plan of call `index` (1-based, in the order the program made them), and its slot when it gets one. */
  plan(index: number, name: string, args: string): CallPlan {
    if (this.diverged !== undefined) return { kind: 'diverged' };
    if (this.pauseAt !== undefined && index > this.pauseAt) return { kind: 'held' };
    const entry = this.ledger?.[index - 1];
    if (entry !== undefined && (entry.name !== name || entry.args !== digest(args))) {
      this.diverged ??= { index, name };
      return { kind: 'diverged' };
    }
    this.slots[index - 1] = { name, args, ...(entry?.answer === undefined ? {} : { answer: entry.answer }) };
    if (entry === undefined) return { kind: 'live' };
    return entry.answer === undefined ? { kind: 'answered', id: entry.id } : { kind: 'recorded', answer: entry.answer };
  }

  /** Call `index` (id `id`) waits for a late approval: the run pauses (calls made from now on are held). */
  pend(index: number, id: string): void {
    this.slots[index - 1]!.pending = id;
    this.pauseAt ??= this.slots.length;
  }

  isPending(index: number): boolean {
    return this.slots[index - 1]?.pending !== undefined;
  }

  settle(index: number, answer: CallAnswer): void {
    this.slots[index - 1]!.answer = answer;
  }

  /** Whether the run pauses and every call before the pause has its answer or waits for its approval. */
  get readyToPause(): boolean {
    return this.pauseAt !== undefined && this.slots.slice(0, this.pauseAt).every((slot) => slot.pending !== undefined || slot.answer !== undefined);
  }

  /** The ledger entries of a paused run: every call before the pause, in order. */
  entries(): LedgerEntry[] {
    return this.slots.slice(0, this.pauseAt).map((slot) => (slot.pending !== undefined ? { name: slot.name, args: digest(slot.args), id: slot.pending } : { name: slot.name, args: digest(slot.args), answer: slot.answer! }));
  }
}
