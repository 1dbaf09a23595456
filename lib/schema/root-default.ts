import { ToolDefinitionError } from '../tool/tool-definition-error';
import { deepFreeze } from './deep-freeze';
import type { JsonSchema } from './json-schema';

/** A params schema with its root `default` taken out, and that default. */
export interface RootDefaultSplit {
  /** The schema without a root `default` (frozen); the input itself when it had none. */
  readonly schema: JsonSchema;
  /** The root default (frozen), or undefined when the schema declares none. */
  readonly value: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Takes the root `default` out of a frozen params schema (zod's `z.object({...}).default({})` emits one). Ajv never
 * applies a default at the root (its strict mode refuses one: "default is ignored in the schema root"), so the
 * registry applies it itself: it stands for the arguments when a call sends none (see `Tool.parseArgs`). Providers
 * are sent the schema without it.
 *
 * @param where - the tool, named in the error.
 * @throws ToolDefinitionError when the root default is not a plain JSON object (arguments are always one).
 */
export function splitRootDefault(schema: JsonSchema, where: string): RootDefaultSplit {
  if (!Object.hasOwn(schema, 'default')) return { schema, value: undefined };
  const { default: value, ...rest } = schema;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolDefinitionError(`${where}: the params schema's root default is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}; it stands for the arguments of a call that sends none, so it must be an object. Give it an object, e.g. default({}), or remove it.`);
  }
  return { schema: deepFreeze(rest) as JsonSchema, value: value as Readonly<Record<string, unknown>> };
}
