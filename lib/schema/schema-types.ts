import type { StandardJSONSchemaV1 } from './standard-schema';

/**
 * The schema types of the public API, structural on purpose: the library imports no schema library, so they match
 * TypeBox 1.x (`typebox`), TypeBox 0.34 (`@sinclair/typebox`, whichever copy of its CommonJS or ES module typings a
 * project resolves), any Standard JSON Schema (zod 4.2+, ArkType 2.1.28+, valibot through `toStandardJsonSchema`) and
 * plain JSON Schema objects.
 */

/**
 * Any field schema: a TypeBox schema (`Type.String()`, ...), a Standard JSON Schema (`z.string()`, ...) or a plain
 * JSON Schema object.
 */
export type Schema = object;

/** An object schema: `Type.Object({...})`, or a plain `{ type: 'object', properties: {...} }`. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties?: object;
}

/**
 * A tool's params schema: a JSON object schema ({@link ObjectSchema}: TypeBox's `Type.Object`, or plain JSON Schema), or
 * a Standard JSON Schema whose JSON Schema is an object (`z.object({...})`, ArkType's `type({...})`, valibot's
 * `toStandardJsonSchema(v.object({...}))`).
 */
export type ParamsSchema = ObjectSchema | StandardJSONSchemaV1;

/**
 * The value a schema describes, at the type level:
 *
 * - a Standard JSON Schema: its input type (`StandardJSONSchemaV1.InferInput`), since validation runs on the JSON
 *   Schema and the library's transforms never run, with the defaults validation applies: a key the input type has
 *   optional and the output type required (zod's `.default(1)`) is required (see {@link Defaulted});
 * - a TypeBox 0.34 schema: TypeBox's own static type (its `static` member);
 * - a TypeBox 1.x schema: the value its JSON Schema describes, read from the schema's type (objects with optional and
 *   readonly properties, arrays, tuples, unions, intersections, records, literals, enums, `Type.Unsafe<T>`); a kind this
 *   reading does not know (a codec, a cyclic or generic type) gives `any` there, so a method typed with TypeBox's
 *   own `Static` still compiles;
 * - a plain JSON Schema object: `Record<string, unknown>`.
 *
 * Use it for the params a tool method receives: `refund(params: Static<typeof RefundParams>)`.
 */
export type Static<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I; readonly output: infer O }
    ? Defaulted<I, O>
    : NonNullable<T> extends { readonly input: infer I }
      ? I
      : Record<string, unknown>
  : StaticInput<S>;

/**
 * The arguments a schema accepts, at the type level: {@link Static} without the defaults validation fills (a zod
 * field with `.default(1)` is optional here). The type of a tool's `examples`, which are arguments as the model sends
 * them.
 */
export type StaticInput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I
    : Record<string, unknown>
  : S extends { readonly static: infer T }
    ? T
    : S extends { readonly '~kind': string }
      ? TypeBox1Static<S>
      : Record<string, unknown>;

/**
 * A Standard Schema's input type `I` as validation hands it over, given its output type `O`: validation fills the
 * schema's defaults (Ajv's `useDefaults`, nested objects too), so a key `I` has optional and `O` required is required,
 * typed as in `I` without `undefined`; every other key keeps its input type (a transform's output type is never what
 * the call receives, since transforms do not run). Unions and arrays stay as in `I`: validation fills no default
 * inside a union (registration refuses one) and the input type of an array's items is what a call carries.
 */
export type Defaulted<I, O> = [I] extends [readonly unknown[]]
  ? I
  : [I] extends [object]
    ? [O] extends [object]
      ? IsUnion<I> extends true
        ? I
        : Flatten<
            { [K in keyof I as K extends RequiredKeys<O> ? K : never]-?: Defaulted<Exclude<I[K], undefined>, Exclude<O[K & keyof O], undefined>> } & {
              [K in keyof I as K extends RequiredKeys<O> ? never : K]: I[K];
            }
          >
      : I
    : I;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type IsUnion<T> = [T] extends [UnionToIntersection<T>] ? false : true;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** The static type of a TypeBox 1.x schema (see {@link Static}). */
export type TypeBox1Static<S> = S extends { readonly '~unsafe': infer T }
  ? T
  : S extends { readonly '~codec': unknown }
    ? // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a codec's encoded side is TypeBox's to compute
      any
    : S extends { readonly '~kind': 'Object'; readonly properties: infer P }
      ? TypeBox1Object<P>
      : S extends { readonly '~kind': 'Record'; readonly patternProperties: infer P }
        ? { [key: string]: TypeBox1Static<P[keyof P]> }
        : S extends { readonly '~kind': 'Tuple'; readonly items: infer I extends readonly unknown[] }
          ? { -readonly [K in keyof I]: TypeBox1Static<I[K]> }
          : S extends { readonly '~kind': 'Array'; readonly items: infer I }
            ? Array<TypeBox1Static<I>>
            : S extends { readonly '~kind': 'Union'; readonly anyOf: infer U extends readonly unknown[] }
              ? TypeBox1Static<U[number]>
              : S extends { readonly '~kind': 'Intersect'; readonly allOf: infer U extends readonly unknown[] }
                ? TypeBox1Intersect<U>
                : S extends { readonly '~kind': 'Enum'; readonly enum: infer E extends readonly unknown[] }
                  ? E[number]
                  : S extends { readonly const: infer C }
                    ? C
                    : S extends { readonly '~kind': 'String' }
                      ? string
                      : S extends { readonly '~kind': 'Number' | 'Integer' }
                        ? number
                        : S extends { readonly '~kind': 'Boolean' }
                          ? boolean
                          : S extends { readonly '~kind': 'Null' }
                            ? null
                            : S extends { readonly '~kind': 'Unknown' }
                              ? unknown
                              : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a kind this reading does not know
                                any;

type Optional1 = { readonly '~optional': true };
type Readonly1 = { readonly '~readonly': true };
type Flatten<T> = { [K in keyof T]: T[K] } & {};

type TypeBox1Object<P> = Flatten<
  { -readonly [K in keyof P as P[K] extends Optional1 ? never : P[K] extends Readonly1 ? never : K]: TypeBox1Static<P[K]> } & {
    -readonly [K in keyof P as P[K] extends Optional1 ? (P[K] extends Readonly1 ? never : K) : never]?: TypeBox1Static<P[K]>;
  } & { readonly [K in keyof P as P[K] extends Readonly1 ? (P[K] extends Optional1 ? never : K) : never]: TypeBox1Static<P[K]> } & {
    readonly [K in keyof P as P[K] extends Readonly1 ? (P[K] extends Optional1 ? K : never) : never]?: TypeBox1Static<P[K]>;
  }
>;

type TypeBox1Intersect<U extends readonly unknown[]> = U extends readonly [infer H, ...infer R] ? TypeBox1Static<H> & TypeBox1Intersect<R> : unknown;
