import { ToolDefinitionError } from '../tool/tool-definition-error';
import { assertAcyclic, errorText } from './json-schema';

/**
 * The Standard JSON Schema interface (`StandardJSONSchemaV1` of `@standard-schema/spec` 1.1, https://standardschema.dev/json-schema),
 * declared here structurally so the library depends on no schema library: zod 4.2+, ArkType 2.1.28+ and valibot (through
 * `toStandardJsonSchema` of `@valibot/to-json-schema`) implement it.
 *
 * @typeParam Input - the type the schema accepts (what a tool method receives: validation runs on the JSON Schema,
 *   so the library's transforms never run).
 * @typeParam Output - the type the library's own parser would return.
 */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The Standard JSON Schema properties. */
  readonly '~standard': StandardJSONSchemaV1.Props<Input, Output>;
}

/** The members of {@link StandardJSONSchemaV1}, as the specification names them. */
// eslint-disable-next-line @typescript-eslint/no-namespace -- the specification declares an interface and a namespace of one name
export declare namespace StandardJSONSchemaV1 {
  /** The Standard JSON Schema properties. */
  interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library (`zod`, `arktype`, `valibot`, ...). */
    readonly vendor: string;
    /** Inferred types associated with the schema (types only: absent at run time). */
    readonly types?: Types<Input, Output> | undefined;
    /** Methods for generating the input and output JSON Schema. */
    readonly jsonSchema: Converter;
  }
  /** The converter: each method may throw when the schema has no JSON Schema form in that target. */
  interface Converter {
    /** The JSON Schema of the input type. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** The JSON Schema of the output type. */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** The dialect of the generated JSON Schema; a library throws for a target it does not support. */
  type Target = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
  /** The options of the converter methods. */
  interface Options {
    /** The dialect to generate. */
    readonly target: Target;
    /** Vendor-specific parameters. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The inferred types. */
  interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** The input type of a schema (what a tool method receives). */
  type InferInput<S extends StandardJSONSchemaV1> = NonNullable<S['~standard']['types']>['input'];
  /** The output type of a schema. */
  type InferOutput<S extends StandardJSONSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

/** The root `$schema` of the dialect the validator uses by default (it is dropped from converted schemas). */
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Whether `value` implements Standard JSON Schema (a `~standard` member with `jsonSchema.input`).
 *
 * @param where - when given, a value whose members cannot be read (a getter or Proxy trap that throws) is refused
 *   naming it; without it, such a value is not a Standard JSON Schema.
 * @throws ToolDefinitionError when `where` is given and reading the members throws.
 */
export function isStandardJsonSchema(value: unknown, where?: string): value is StandardJSONSchemaV1 {
  try {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
    const props = (value as { '~standard'?: unknown })['~standard'];
    if (props === null || typeof props !== 'object') return false;
    const converter = (props as { jsonSchema?: unknown }).jsonSchema;
    return converter !== null && typeof converter === 'object' && typeof (converter as { input?: unknown }).input === 'function';
  } catch (error) {
    if (where === undefined) return false;
    throw new ToolDefinitionError(`${where}: the schema could not be read: ${errorText(error)}`, { cause: error });
  }
}

/**
 * The JSON Schema of a Standard JSON Schema's input type: in input mode, so a field with a default is optional (the
 * output mode would make it required). Asks for draft 2020-12 (the Model Context Protocol's default dialect) and
 * falls back to draft-07 when the library refuses that target; a root `$schema` naming 2020-12 is dropped (the
 * validator's default dialect), one naming another dialect is kept.
 *
 * @param where - the tool and place, named in the error.
 * @throws ToolDefinitionError when the library cannot express the schema as JSON Schema in either dialect (for
 *   example a zod `z.date()` or a function), with the library's reason.
 */
export function standardToJsonSchema(schema: StandardJSONSchemaV1, where: string): Record<string, unknown> {
  const props = schema['~standard'];
  const vendor = vendorOf(props);
  let converted: Record<string, unknown>;
  try {
    converted = props.jsonSchema.input({ target: 'draft-2020-12' });
  } catch {
    try {
      converted = props.jsonSchema.input({ target: 'draft-07' });
    } catch (error) {
      throw new ToolDefinitionError(
        `${where}: the ${vendor} schema has no JSON Schema form (${errorText(error)}). Tools take JSON arguments: use JSON types (for a date, a string with format 'date-time').`,
        { cause: error },
      );
    }
  }
  if (converted === null || typeof converted !== 'object') {
    throw new ToolDefinitionError(`${where}: the ${vendor} schema converted to ${converted === null ? 'null' : typeof converted}, not a JSON Schema object.`);
  }
  if (typeof (converted as { then?: unknown }).then === 'function') {
    throw new ToolDefinitionError(`${where}: the ${vendor} schema converted to a Promise: its jsonSchema.input must return the JSON Schema itself.`);
  }
  assertAcyclic(converted, where);
  if (converted.$schema !== DRAFT_2020_12) return converted;
  const rest = { ...converted };
  delete rest.$schema;
  return rest;
}

/** The library's name as the schema gives it, or 'Standard Schema' when it gives none that can be read. */
function vendorOf(props: StandardJSONSchemaV1.Props): string {
  try {
    return typeof props.vendor === 'string' && props.vendor !== '' ? props.vendor : 'Standard Schema';
  } catch {
    return 'Standard Schema';
  }
}
