import type { Schema } from '../schema/schema-types';
import { MetadataKeys } from '../metadata/keys';
import type { ParamRecord } from '../metadata/records';
import { defineOwn, getOwn } from '../metadata/reflection';

/** Options of `@Param(name, options)` when no explicit schema is needed. */
export interface ParamOptions {
  /** Shown to the model as the field's description. */
  description?: string | undefined;
  /** The model may leave the field out (the method then receives `undefined`). */
  optional?: boolean | undefined;
}

/**
 * Names a parameter of a plain-signature tool method, since TypeScript keeps no parameter names at run time.
 *
 * The field's schema is `schema` when given, else derived from the parameter's reflected type (`design:paramtypes`):
 * `string`, `number` and `boolean` only. Any other type needs an explicit schema: TypeBox (`typebox` 1.x or
 * `@sinclair/typebox` 0.34), a Standard JSON Schema (`z.string()`, ...) or plain JSON Schema. Registering without one is
 * a `ToolDefinitionError` naming the class, method and parameter. The field is optional when `optional` is set, when
 * the schema is TypeBox's `Type.Optional(...)`, or when a Standard Schema accepts `undefined` (`.optional()`, a default).
 *
 * @example
 * ```ts
 * @Action('Add two integers.')
 * add(@Param('a', Type.Integer()) a: number, @Param('b', Type.Integer()) b: number) { return a + b; }
 * ```
 */
export function Param(name: string, schemaOrOptions?: Schema | ParamOptions): ParameterDecorator {
  return (target, member, index) => {
    if (member === undefined) return;
    const isSchema = schemaOrOptions !== undefined && !isParamOptions(schemaOrOptions);
    const options = (isSchema ? {} : (schemaOrOptions ?? {})) as ParamOptions;
    const record: ParamRecord = {
      index,
      name,
      schema: isSchema ? (schemaOrOptions as Schema) : undefined,
      description: options.description,
      optional: options.optional ?? false,
    };
    const existing = getOwn<ParamRecord[]>(MetadataKeys.params, target, member) ?? [];
    defineOwn(MetadataKeys.params, [...existing, record], target, member);
  };
}

const OPTION_KEYS = new Set(['description', 'optional']);

/**
 * Whether the second argument is {@link ParamOptions} rather than a schema: a plain object holding only `description`
 * and `optional` (a schema carries a type, a TypeBox marker or a `~standard` member).
 */
function isParamOptions(value: object): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.getOwnPropertySymbols(value).length > 0) return false;
  return Object.getOwnPropertyNames(value).every((key) => OPTION_KEYS.has(key));
}
