import { randomBytes } from 'node:crypto';
import type { ToolCallRequest } from './tool-call-request';

/**
 * The calls of one response with an id each that no other call of the response has: a call whose provider id is empty
 * or already taken by an earlier call gets a made-up id (`<provider>_<random>_<position>`, random per response so it
 * never names a call of another response) and keeps the provider's in `providerId`. Calls whose ids are unique are
 * returned as they are.
 */
export function withUniqueIds(calls: ReadonlyArray<{ id: string; name: string; args: unknown }>, provider: string): ToolCallRequest[] {
  const taken = new Set(calls.map((call) => call.id));
  const seen = new Set<string>();
  let nonce: string | undefined;
  return calls.map((call, index) => {
    if (call.id !== '' && !seen.has(call.id)) {
      seen.add(call.id);
      return call;
    }
    nonce ??= randomBytes(6).toString('hex');
    let id = `${provider}_${nonce}_${index}`;
    for (let n = 1; taken.has(id) || seen.has(id); n++) id = `${provider}_${nonce}_${index}_${n}`;
    seen.add(id);
    return { id, name: call.name, args: call.args, providerId: call.id };
  });
}
