import type { ValidateFunction } from 'ajv';
import { CoreError } from '../errors';
import { isActionResult } from '../result';
import { assertJsonSchema, toPlainJsonSchema, type JsonSchema } from '../schema/json-schema';
import { isPlainObject, plainCopy } from '../schema/plain-copy';
import { compileValidator, describeValidationErrors } from '../schema/validator';
import { ToolChunk } from '../streaming/tool-chunk';
import { cutText } from '../text/cut-text';
import type { ActionOptions, ToolIcon } from './action-options';
import { ToolDefinitionError } from './tool-definition-error';

/** The listing extras and output schema of a tool, checked and frozen at registration. */
export interface ToolExtras {
  /** The `returns` schema as plain, frozen JSON Schema, when declared. */
  readonly outputSchema: JsonSchema | undefined;
  /** The `examples` option: frozen copies, each valid against the params schema. */
  readonly examples: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly title: string | undefined;
  readonly icons: readonly ToolIcon[];
  /** The `meta` option (MCP `_meta`), frozen. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The `outputBudget` option as given (checked when the tool is registered). */
  readonly outputBudget: ActionOptions['outputBudget'];
}

/**
 * Checks and freezes a tool's `returns`, `examples`, `title`, `icons` and `meta` options.
 *
 * @param validateParams - gives the tool's params validator (only asked for when there are examples): every example must
 *   pass it.
 * @throws ToolDefinitionError naming the tool and the option when one is malformed: `returns` not a JSON Schema,
 *   an example that is not an object or does not match the params schema (naming which example and why), a blank
 *   title, an icon without a `src`, `meta` that is not a plain object.
 */
export function resolveToolExtras(options: ActionOptions, where: string, name: string, validateParams: () => ValidateFunction): ToolExtras {
  let outputSchema: JsonSchema | undefined;
  if (options.returns !== undefined) {
    assertJsonSchema(options.returns, `${where} (returns)`);
    outputSchema = toPlainJsonSchema(options.returns);
  }
  const examples = (options.examples ?? []).map((example, index) => checkExample(example, index, where, name, validateParams()));
  const title = options.title;
  if (title !== undefined && (typeof title !== 'string' || title.trim() === '')) throw new ToolDefinitionError(`${where}: 'title' must be a non-empty string.`);
  const icons = (options.icons ?? []).map((icon, index) => {
    if (!isPlainObject(icon) || typeof icon.src !== 'string' || icon.src === '') throw new ToolDefinitionError(`${where}: icons[${index}] needs a 'src' (an https: or data: URL).`);
    return Object.freeze({ ...icon, ...(icon.sizes ? { sizes: Object.freeze([...icon.sizes]) } : {}) }) as ToolIcon;
  });
  const meta = options.meta;
  if (meta !== undefined && !isPlainObject(meta)) throw new ToolDefinitionError(`${where}: 'meta' must be a plain object.`);
  return Object.freeze({
    outputSchema,
    examples: Object.freeze(examples),
    title,
    icons: Object.freeze(icons),
    meta: meta === undefined ? undefined : (Object.freeze(plainCopy(meta)) as Readonly<Record<string, unknown>>),
    outputBudget: options.outputBudget,
  });
}

function checkExample(example: unknown, index: number, where: string, name: string, validate: ValidateFunction): Readonly<Record<string, unknown>> {
  if (!isPlainObject(example)) throw new ToolDefinitionError(`${where}: examples[${index}] must be an object of params, got ${Array.isArray(example) ? 'an array' : typeof example}.`);
  const copy = plainCopy(example) as Record<string, unknown>;
  // The validator applies defaults: it checks a copy, and the example is kept as written.
  if (!validate(plainCopy(example))) {
    const why = describeValidationErrors(name, validate.errors ?? []).split('\n').slice(1, -1).join('; ');
    throw new ToolDefinitionError(`${where}: examples[${index}] does not match the params schema: ${why}. Fix the example or the schema.`);
  }
  return Object.freeze(copy);
}

/**
 * A check of a tool's return value (or promise of one) against its `returns` schema: it passes the value through, or
 * throws (rejects). What is checked is the value's JSON form (what a model reads); a failed `ActionResult` and
 * streamed output pass unchecked. A mismatch throws a `CoreError` `INVALID_TOOL_OUTPUT` whose first line (all a model
 * sees) is generic and whose next lines (in the logged stack) say what did not match: the registry reports it as the
 * tool's bug.
 *
 * @throws ToolDefinitionError when the schema cannot be compiled (at registration).
 */
export function outputCheck(outputSchema: JsonSchema, where: string, name: string): (value: unknown) => unknown {
  let validate: ValidateFunction;
  try {
    validate = compileValidator(outputSchema, `${where} (returns)`);
  } catch (error) {
    throw new ToolDefinitionError(`${where}: the 'returns' schema cannot be compiled: ${(error as Error).message}`, { cause: error });
  }
  const check = (value: unknown): unknown => {
    let data: unknown = value;
    if (isActionResult(value)) {
      if (!value.ok) return value;
      data = value.result;
    } else if (isStreamedValue(value)) {
      return value;
    }
    const json = jsonData(data);
    if (json === undefined && data !== undefined) {
      throw new CoreError('INVALID_TOOL_OUTPUT', 'its result has no JSON form (a bigint, a cycle, or a toJSON that throws), so it cannot match the output schema it declares (a bug in the tool, not in your arguments).');
    }
    if (!validate(json)) {
      const details = describeValidationErrors(name, validate.errors ?? []).split('\n').slice(1, -1).join('\n');
      throw new CoreError('INVALID_TOOL_OUTPUT', `its result does not match the output schema it declares (a bug in the tool, not in your arguments).\n${cutText(details, 4000)}`);
    }
    return value;
  };
  return (value) => (isThenable(value) ? value.then(check) : check(value));
}

/** The JSON form of a value (a Date becomes its string, bytes their JSON), or undefined when it has none. */
function jsonData(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function isStreamedValue(value: unknown): boolean {
  return value instanceof ToolChunk || (typeof value === 'object' && value !== null && typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function');
}
