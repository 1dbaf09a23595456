/**
 * Type tests of the public API under `strict` and `exactOptionalPropertyTypes`, with each schema library: compiled
 * by spec/typing/typing.spec.ts (and by `npm test`'s type check). A `@ts-expect-error` line fails the compile when
 * the error it expects does not happen.
 */
import { Type as Type1, type Static as Static1 } from 'typebox';
import { Type as Type034, type Static as Static034 } from '@sinclair/typebox';
import { Type as TypeOurs, type TObject as TObjectOurs } from 'agenttoolkit/typebox';
import { z } from 'zod';
import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  Action,
  ActionResult,
  Inject,
  Param,
  RequiresApproval,
  ToolBase,
  ToolChunk,
  ToolContext,
  ToolError,
  Tools,
  FunctionTool,
  executeToolCalls,
  runToolCalls,
  ToolSchemaFormat,
  type Static,
  type StaticInput,
  type ToolChunkMiddleware,
  type ToolEffect,
  type ToolLogger,
} from 'agenttoolkit';
import { PermissionDecision } from 'agenttoolkit/permissions';
import { anthropicTools } from 'agenttoolkit/providers/anthropic';
import { mcpCallTool, mcpListTools } from 'agenttoolkit/providers/mcp';

class Client {
  refund(orderId: string, amount: number): string {
    return `${orderId}:${amount}`;
  }
}

// TypeBox 1.x: a method typed with TypeBox's own Static, and the option predicates inferred from params.
const Refund1 = Type1.Object({ orderId: Type1.String(), amount: Type1.Number(), note: Type1.Optional(Type1.String()) });
class Billing1 {
  @Action('Refund.', { params: Refund1, requiresApproval: (p) => p.amount > 100, status: (p) => `Refunding ${p.orderId}`, readOnly: (p) => p.note === undefined })
  refund(params: Static1<typeof Refund1>, @Inject(Client) client: Client): string {
    return client.refund(params.orderId, params.amount);
  }

  @Action('Refund, library Static.', { params: Refund1 })
  @RequiresApproval((p: Static<typeof Refund1>) => p.amount > 100)
  refundChecked(params: Static<typeof Refund1>): number {
    return params.amount;
  }

  @Action('Count.')
  count(@Param('n', Type1.Optional(Type1.Integer())) n: number | undefined): number {
    return n ?? 0;
  }
}

// agenttoolkit/typebox: TypeBox 1.x's Type, typed as the user's own typebox types it, mixed with it.
const RefundOurs = TypeOurs.Object({ orderId: TypeOurs.String(), amount: TypeOurs.Number(), note: TypeOurs.Optional(Type1.String()) });
const refundOursAsTheirs: TObjectOurs = Type1.Object({ inner: RefundOurs });
const RefundBoth = Type1.Object({ refund: RefundOurs, reason: TypeOurs.Optional(TypeOurs.String()) });
class BillingOurs {
  @Action('Refund.', { params: RefundOurs, requiresApproval: (p) => p.amount > 100, readOnly: (p) => p.note === undefined })
  refund(params: Static1<typeof RefundOurs>): string {
    return params.orderId;
  }

  @Action('Refund, mixed.', { params: RefundBoth, status: (p) => `Refunding ${p.refund.orderId} ${p.reason ?? ''}` })
  refundBoth(params: Static<typeof RefundBoth>): number {
    return params.refund.amount;
  }
}
const oursStatic: Static<typeof RefundOurs> = { orderId: 'o', amount: 1 };
const oursStatic1: Static1<typeof RefundOurs> = oursStatic;
// @ts-expect-error amount is a number
const oursWrong: Static<typeof RefundOurs> = { orderId: 'o', amount: '1' };
// @ts-expect-error exactOptionalPropertyTypes: an optional field is absent, not undefined
const oursUndefined: Static1<typeof RefundOurs> = { orderId: 'o', amount: 1, note: undefined };
new Tools().action({ name: 'refund_ours', description: 'Refund.', params: RefundBoth }, (p) => p.refund.amount + (p.refund.note ?? '').length);

// TypeBox 0.34.
const Refund034 = Type034.Object({ orderId: Type034.String(), amount: Type034.Number() });
class Billing034 {
  @Action('Refund.', { params: Refund034, requiresApproval: (p) => p.amount > 100 })
  refund(params: Static034<typeof Refund034>): string {
    return params.orderId;
  }
}

// Standard JSON Schema: zod (a field with a default is optional in the arguments, present in the params), ArkType, valibot.
const RefundZod = z.object({ orderId: z.string(), amount: z.number().default(1) });
const Booking = z.object({ nights: z.number().default(1), stay: z.object({ room: z.string().default('any'), note: z.string().optional() }).default({ room: 'any' }), tag: z.string().transform((t) => t.length).optional() });
class Bookings {
  // The predicates receive the validated params: a defaulted field is a number, never undefined.
  @Action('Book.', { params: Booking, requiresApproval: (p) => p.nights > 7 && p.stay.room !== 'any', status: (p) => `${p.nights.toFixed(0)} nights`, readOnly: (p) => p.nights === 0 })
  book(params: Static<typeof Booking>): string {
    return String(params.nights);
  }

  @Action('Book, decorator predicate.', { params: Booking })
  @RequiresApproval((p: Static<typeof Booking>) => p.nights > 7)
  bookChecked(params: Static<typeof Booking>): number {
    return params.nights + params.stay.room.length;
  }
}
const bookingParams: Static<typeof Booking> = { nights: 2, stay: { room: 'a' } };
const bookingTag: Static<typeof Booking>['tag'] = 'a transform never runs: the params carry its input';
// @ts-expect-error a defaulted field is present in the params
const bookingNoDefault: Static<typeof Booking> = { stay: { room: 'a' } };
// @ts-expect-error a nested defaulted field is present in the params
const bookingNoNestedDefault: Static<typeof Booking> = { nights: 1, stay: {} };
const bookingArgs: StaticInput<typeof Booking> = {};
new Tools().action({ name: 'book', description: 'Book.', params: Booking, requiresApproval: (p) => p.nights > 7, examples: [{}, { nights: 2 }] }, (p) => p.nights);
const RefundArk = type({ orderId: 'string', 'amount?': 'number' });
const RefundValibot = toStandardJsonSchema(v.object({ orderId: v.string(), amount: v.optional(v.number(), 1) }));
class BillingStandard {
  @Action('Refund.', { params: RefundZod, requiresApproval: (p) => (p.amount ?? 0) > 100 })
  zod(params: z.input<typeof RefundZod>): string {
    return params.orderId;
  }

  @Action('Refund.', { params: RefundArk, status: (p) => p.orderId })
  ark(params: typeof RefundArk.inferIn): string {
    return params.orderId;
  }

  @Action('Refund.', { params: RefundValibot })
  valibot(params: Static<typeof RefundValibot>): string {
    return params.orderId;
  }

  @Action('Greet.')
  greet(@Param('name', z.string()) name: string): string {
    return name;
  }
}

const zodInput: StaticInput<typeof RefundZod> = { orderId: 'o' };
const zodParams: Static<typeof RefundZod> = { orderId: 'o', amount: 1 };
const arkInput: Static<typeof RefundArk> = { orderId: 'o' };
const valibotInput: StaticInput<typeof RefundValibot> = { orderId: 'o' };
// @ts-expect-error valibot's v.optional(schema, default) is present in the params
const valibotParams: Static<typeof RefundValibot> = { orderId: 'o' };
// @ts-expect-error orderId is required
const zodMissing: Static<typeof RefundZod> = { amount: 1 };
// @ts-expect-error amount is a number
const typeboxWrong: Static<typeof Refund1> = { orderId: 'o', amount: '1' };

class Mismatch {
  // @ts-expect-error the predicate wants a field the method's params do not have
  @RequiresApproval((p: { total: number }) => p.total > 1)
  @Action('Refund.', { params: Refund1 })
  refund(params: Static<typeof Refund1>): number {
    return params.amount;
  }

  // @ts-expect-error the predicate's params type is not what the method receives
  @RequiresApproval((p: { amount: string }) => p.amount === '1')
  @Action('Refund.', { params: Refund1 })
  refundString(params: Static<typeof Refund1>): number {
    return params.amount;
  }

  @RequiresApproval((p: { amount: number }) => p.amount > 1)
  @Action('Refund, wider predicate.', { params: Refund1 })
  refundWide(params: Static<typeof Refund1>): number {
    return params.amount;
  }

  @RequiresApproval()
  @Action('Always ask.')
  always(): number {
    return 1;
  }

  @RequiresApproval((p: { a: number }) => p.a > 1)
  @Action('Plain signature.')
  plain(@Param('a') a: number): number {
    return a;
  }
}

class WrongMethod {
  // @ts-expect-error the method's params are not what the schema describes
  @Action('Refund.', { params: Refund1 })
  refund(params: { other: boolean }): boolean {
    return params.other;
  }
}

// exactOptionalPropertyTypes: options built from values that may be undefined, and the MCP SDK's request params.
declare const maybeLogger: ToolLogger | undefined;
declare const maybeContext: ToolContext | undefined;
declare const maybeSignal: AbortSignal | undefined;
declare const request: CallToolRequest;
const tools = new Tools({ logger: maybeLogger, context: maybeContext });
tools.register(new Billing1(), new Billing034(), new BillingStandard(), { instance: new Billing1(), prefix: 'b_', group: undefined, names: undefined });
tools.action({ name: 'add', description: 'Add.', params: Type1.Object({ a: Type1.Integer(), b: Type1.Integer() }), group: undefined }, ({ a, b }) => a + b);
tools.action({ name: 'zadd', description: 'Add.', params: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => a + b);
new FunctionTool(({ city }) => city, { name: 'weather', description: 'Weather.', params: RefundArk.merge({ city: 'string' }) });
void tools.execute('add', { a: 1, b: 2 }, { signal: maybeSignal, callId: undefined });
void mcpCallTool(tools, request.params);
void (async () => {
  const result = await tools.execute('add', {});
  const fail: ActionResult<unknown> = ActionResult.fail('x');
  if (!result.ok) throw new ToolError(result.error ?? 'failed', { cause: fail });
})();

// exactOptionalPropertyTypes: every option of @Action, ToolBase and the listing and result helpers given a value that
// may be undefined.
declare const maybeString: string | undefined;
declare const maybeBoolean: boolean | undefined;
declare const maybeEffects: readonly ToolEffect[] | undefined;
declare const maybeTags: readonly string[] | undefined;
declare const maybeRecord: Readonly<Record<string, unknown>> | undefined;
declare const maybeMiddlewares: readonly ToolChunkMiddleware[] | undefined;
declare const maybeTtl: '5m' | '1h' | undefined;
declare const maybeBytes: Uint8Array;
class EveryOption {
  @Action('Refund.', {
    name: maybeString,
    params: Refund1,
    effects: maybeEffects,
    status: maybeString,
    tags: maybeTags,
    metadata: maybeRecord,
    availableWhen: undefined,
    requiresApproval: maybeBoolean,
    strict: maybeBoolean,
    readOnly: maybeBoolean,
    concurrencySafe: maybeBoolean,
    permissions: undefined,
    middlewares: maybeMiddlewares,
    returns: undefined,
    examples: undefined,
    title: maybeString,
    icons: [{ src: 'https://example.com/i.png', mimeType: maybeString, sizes: maybeTags, theme: undefined }],
    meta: maybeRecord,
  })
  refund(params: Static<typeof Refund1>): ActionResult<unknown> {
    return params.amount > 0 ? ActionResult.image(maybeBytes, maybeString, maybeString) : ActionResult.file(maybeBytes, maybeString, maybeString);
  }
}
class EveryToolBaseOption extends ToolBase<typeof Refund1> {
  constructor() {
    super({ name: 'refund_base', description: 'Refund.', inputSchema: Refund1, group: maybeString, effects: maybeEffects, tags: maybeTags, metadata: maybeRecord, title: maybeString, isReadOnly: maybeBoolean, isConcurrencySafe: maybeBoolean, middlewares: maybeMiddlewares });
  }
  override checkPermissions(): PermissionDecision {
    return PermissionDecision.allow('Test.');
  }
  override call(params: Static<typeof Refund1>): ToolChunk {
    return ToolChunk.text(params.orderId, { id: maybeString, metadata: maybeRecord });
  }
}
const everyOption = new Tools({ logger: maybeLogger }).register(new EveryOption(), new EveryToolBaseOption());
const anthropicList = anthropicTools(everyOption, { strict: maybeBoolean, cacheControl: { type: 'ephemeral', ttl: maybeTtl }, context: maybeContext });
const anthropicPlain = anthropicTools(everyOption, { cacheControl: undefined });
const mcpList = mcpListTools(everyOption, maybeContext);
const openAIList = everyOption.getSchema(ToolSchemaFormat.OPENAI_STRICT, maybeContext);
void executeToolCalls(everyOption, [{ id: '1', name: 'refund', args: {} }], { approve: undefined, signal: maybeSignal, context: maybeContext, callId: maybeString });
void runToolCalls(everyOption, [{ id: '1', name: 'refund', args: {} }], { engine: undefined, approved: undefined, context: maybeContext, signal: maybeSignal });
const failed = new ActionResult({ ok: false, error: maybeString, result: undefined });

export { anthropicList, anthropicPlain, mcpList, openAIList, failed };
export { Bookings, bookingParams, bookingTag, bookingNoDefault, bookingNoNestedDefault, bookingArgs, zodParams, valibotParams };
export { Mismatch, WrongMethod, zodInput, arkInput, valibotInput, zodMissing, typeboxWrong };
export { BillingOurs, refundOursAsTheirs, oursStatic1, oursWrong, oursUndefined };
