import type { ParamsSchema } from '../schema/schema-types';
import type { ValidateFunction } from 'ajv';
import type { Availability } from '../context/availability';
import type { DescriptionSource } from '../context/context-description';
import type { ToolContext } from '../context/tool-context';
import type { PermissionContext } from '../permissions/permission-context';
import type { PermissionDecision } from '../permissions/permission-decision';
import type { PermissionRule, RuleBehavior } from '../permissions/permission-rule';
import type { ToolChunk } from '../streaming/tool-chunk';
import { assertJsonSchema, plainJsonSchema, readSchema, type JsonSchema } from '../schema/json-schema';
import { splitRootDefault } from '../schema/root-default';
import { checksFieldsOnly, compileNullStripper, type NullStripper } from '../schema/null-stripping';
import { isStandardJsonSchema, standardToJsonSchema } from '../schema/standard-schema';
import { compileUndeclaredStripper, type UndeclaredStripper } from '../schema/strip-undeclared';
import { isPlainObject, plainCopy } from '../schema/plain-copy';
import { assertStrictSchema } from '../schema/strict-schema';
import { describeValidationErrors, lazyValidator } from '../schema/validator';
import type { ActionOptions } from './action-options';
import { compileStatusTemplate, type StatusRenderer } from './status';
import { ToolDefinitionError } from './tool-definition-error';
import type { Invocation } from './invocation';
import type { ToolEffect } from './tool-effect';
import type { ToolChunkMiddleware, ToolInfo } from './tool-info';
import { defaultCheckPermissions, defaultSuggestions, streamTool } from './tool-permissions';
import { CallLimiter } from '../pipeline/call-limiter';
import { resolveTraits, type ResolvedTraits, type ToolTraitsInit } from './tool-traits';
import { outputCheck, resolveToolExtras, type ToolExtras } from './tool-extras';
import { cutText } from '../text/cut-text';

export type { Invocation } from './invocation';

/** Runs a tool's code with validated params; may return a value, an `ActionResult`, or a promise of either. */
export type ToolBody = (params: Record<string, unknown>, invocation: Invocation) => unknown;

/** Everything needed to build a {@link Tool}: produced from an `@Action` method or from `tools.action(...)`. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string | DescriptionSource;
  /** The group the tool belongs to: the class's `@ToolGroup` name or class name, or `"default"` for function tools. */
  readonly group: string;
  /** `Class.method` or `tool '<name>'`, named in errors. */
  readonly source: string;
  /** The params object schema: TypeBox, a Standard JSON Schema or plain JSON Schema. */
  readonly params: ParamsSchema;
  readonly options: ActionOptions;
  /** Whether calls need confirmation: always, never, or when the predicate holds for the validated params. */
  readonly approval: boolean | ((params: never) => boolean);
  readonly body: ToolBody;
  /** The traits and permission hooks (`ToolBase`, `FunctionTool`, MCP); `@Action` tools use their options. */
  readonly traits?: ToolTraitsInit;
}

/** The outcome of {@link Tool.parseArgs}. */
export type ParsedArgs = { readonly ok: true; readonly params: Record<string, unknown> } | { readonly ok: false; readonly error: string };

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The JSON parser's own message (it quotes the text, which may start inside a surrogate pair) is cut to this. */
const MAX_PARSE_ERROR = 200;

/**
 * A registered tool: its model-facing definition (name, description, JSON Schema) and its runtime metadata (effects,
 * status, tags, metadata, approval, availability), which never reaches a model-facing schema.
 *
 * Built and checked once at registration: the name, the params schema (an object, JSON Schema only) and the status
 * template; the Ajv validator is compiled on the first call when the schema is certain to compile, else at
 * registration (see `lazyValidator`). Bad definitions throw {@link ToolDefinitionError} naming the source.
 */
export class Tool implements ToolInfo {
  readonly name: string;
  readonly group: string;
  readonly source: string;
  /** What calls do to the world. */
  readonly effects: ReadonlySet<ToolEffect>;
  /** Whether the tool declared its effects (`effects: []` included); undeclared effects are unknown, not none. */
  readonly effectsDeclared: boolean;
  readonly tags: ReadonlySet<string>;
  /** The free `metadata` option, frozen. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The params schema as given (TypeBox, a Standard JSON Schema or plain JSON Schema). */
  readonly paramsSchema: ParamsSchema;
  /** The params schema as plain, frozen JSON Schema: what provider formats start from. */
  readonly parameters: JsonSchema;
  readonly availableWhen: Availability | undefined;
  /** False when the tool opted out of strict mode (`strict: false`); strict formats then render it non-strict. */
  readonly strict: boolean;
  private readonly stripNulls: NullStripper;
  /** Whether {@link stripNulls} looks at a few top-level fields only (then it runs on JSON text without a scan for `null`). */
  private readonly nullFieldsOnly: boolean;
  /** Removes undeclared fields; `undefined` when the schema leaves no object open to them. */
  private readonly stripUndeclared: UndeclaredStripper | undefined;
  /** Safe to run in parallel with other concurrency-safe calls. */
  readonly isConcurrencySafe: boolean;
  /** Calls only read; see {@link checkReadOnly} for the per-call answer. */
  readonly isReadOnly: boolean;
  /** No body: a call yields an `ExternalExecutionRequest` for the host. */
  readonly isExternalTool: boolean;
  /** The body receives the agent state (`AGENT_STATE` from the call's context). */
  readonly isStateInjected: boolean;
  /** Comes from an MCP server, named `mcpName`. */
  readonly isMcp: boolean;
  readonly mcpName: string | undefined;
  /** Per-tool onion middleware, first = outermost. */
  readonly middlewares: readonly ToolChunkMiddleware[];
  /** True when calls go through chunks (per-tool middleware or external execution): the registry's slow path. */
  readonly hasChunkPipeline: boolean;
  /** The gate of `maxConcurrency` (at most that many calls at once, the rest queued); `undefined` without a limit. */
  readonly callLimiter: CallLimiter | undefined;
  /** The `returns`, `examples`, `title`, `icons` and `meta` options, checked and frozen (see `ActionOptions`). */
  readonly extras: ToolExtras;
  /**
   * Checks what the tool's code returned (a value or a promise) against the `returns` schema: passes it through, or
   * throws (rejects) a `CoreError` `INVALID_TOOL_OUTPUT`. The identity without `returns`. Subclasses that override
   * {@link invoke} pass their return value through it.
   */
  protected readonly checkOutput: (value: unknown) => unknown;
  private readonly traits: ResolvedTraits;
  private readonly description: string | DescriptionSource;
  /** The compiled params validator (compiled on the first call for most schemas; see `lazyValidator`). */
  private readonly validator: () => ValidateFunction;
  private readonly status: StatusRenderer | undefined;
  private readonly approval: boolean | ((params: never) => boolean);
  private readonly body: ToolBody;
  /** The params schema's root default: the arguments of a call that sends none (see {@link parseArgs}). */
  private readonly rootDefault: Readonly<Record<string, unknown>> | undefined;
  /** Whether validation may write defaults into nested objects (then arguments are deep-copied first). */
  private readonly hasDefaults: boolean;

  /** @throws ToolDefinitionError when the spec cannot be registered (see class docs). */
  constructor(spec: ToolSpec) {
    const where = spec.source;
    if (!NAME.test(spec.name)) {
      throw new ToolDefinitionError(
        `${where}: the tool name '${spec.name}' is not accepted by providers: use 1 to 64 letters, digits, '_' or '-' (pass { name } to @Action).`,
      );
    }
    const params: unknown = isStandardJsonSchema(spec.params, where) ? standardToJsonSchema(spec.params, where) : spec.params;
    if (params === null || typeof params !== 'object' || readSchema(where, () => (params as { type?: unknown }).type) !== 'object') {
      throw new ToolDefinitionError(
        `${where}: params must be an object schema (Type.Object({...})), got ${describeSchema(params)}. Providers take tool arguments as one JSON object; wrap other shapes in a field.`,
      );
    }
    assertJsonSchema(params, where);
    this.name = spec.name;
    this.group = spec.group;
    this.source = where;
    this.description = spec.description;
    this.paramsSchema = spec.params;
    const plain = plainJsonSchema(params as object);
    const root = splitRootDefault(plain.schema, where);
    this.parameters = root.schema;
    this.rootDefault = root.value;
    this.validator = lazyValidator(this.parameters, where);
    this.hasDefaults = plain.text.includes('"default"');
    this.stripNulls = compileNullStripper(this.parameters, where);
    this.nullFieldsOnly = checksFieldsOnly(this.stripNulls);
    this.stripUndeclared = compileUndeclaredStripper(this.parameters);
    this.strict = spec.options.strict !== false;
    if (this.strict) assertStrictSchema(this.parameters, where);
    const options = spec.options;
    this.effects = new Set(options.effects ?? []);
    this.effectsDeclared = options.effects !== undefined;
    this.tags = new Set(options.tags ?? []);
    this.metadata = Object.freeze({ ...options.metadata });
    this.availableWhen = options.availableWhen;
    const status = options.status;
    this.status =
      typeof status === 'string'
        ? compileStatusTemplate(status, where, Object.keys((this.parameters.properties as object | undefined) ?? {}))
        : (status as StatusRenderer | undefined);
    this.approval = spec.approval;
    this.extras = resolveToolExtras(options, where, spec.name, this.validator);
    this.body = spec.body;
    this.checkOutput = this.extras.outputSchema === undefined ? (value) => value : outputCheck(this.extras.outputSchema, where, spec.name);
    const traits = (this.traits = resolveTraits(options, spec.traits));
    this.isConcurrencySafe = traits.isConcurrencySafe;
    this.isReadOnly = traits.isReadOnly;
    this.isExternalTool = traits.isExternalTool;
    this.isStateInjected = traits.isStateInjected;
    this.isMcp = traits.isMcp;
    this.mcpName = traits.mcpName;
    this.middlewares = traits.middlewares;
    this.hasChunkPipeline = traits.middlewares.length > 0 || traits.isExternalTool;
    this.callLimiter = traits.maxConcurrency === undefined ? undefined : new CallLimiter(traits.maxConcurrency);
    if (this.rootDefault !== undefined) {
      const checked = this.parseArgs(this.rootDefault);
      if (!checked.ok) {
        const fields = checked.error.split('\n').filter((line) => line.startsWith('- '));
        throw new ToolDefinitionError(`${where}: the params schema's root default does not match the schema: ${fields.length > 0 ? fields.join('; ') : checked.error}. Fix the default.`);
      }
    }
  }

  /** The description rendered against `context` (a `descriptionFromContext` falls back when its dependency is absent). */
  resolveDescription(context?: ToolContext): string {
    return typeof this.description === 'string' ? this.description : this.description.resolve(context);
  }

  /** True when the description depends on the context (so it cannot be cached across contexts). */
  get hasContextDescription(): boolean {
    return typeof this.description !== 'string';
  }

  /** Whether the tool is offered in `context` (its `availableWhen`, if any). */
  isAvailable(context: ToolContext): boolean {
    return this.availableWhen === undefined || this.availableWhen.test(context);
  }

  /** Whether the tool declares `effect`. */
  hasEffect(effect: ToolEffect): boolean {
    return this.effects.has(effect);
  }

  /** True when some calls of this tool need the user's confirmation (always, or depending on the params). */
  get requiresApproval(): boolean {
    return this.approval !== false;
  }

  /**
   * Whether this particular call needs confirmation. A predicate sees exactly the params the method would receive
   * (validated, defaults applied, undeclared fields removed). Arguments that do not validate return false: such a call
   * fails validation and runs nothing. A predicate that throws returns true (fail closed).
   */
  needsApproval(args: unknown): boolean {
    if (typeof this.approval === 'boolean') return this.approval;
    const parsed = this.parseArgs(args);
    if (!parsed.ok) return false;
    try {
      return (this.approval as (params: Record<string, unknown>) => boolean)(parsed.params);
    } catch {
      // A predicate that fails cannot vouch for the call: fail closed, so nothing runs unconfirmed.
      return true;
    }
  }

  /**
   * The status line for a call: the `status` option (a template or a function) rendered over the validated params
   * (defaults applied, undeclared fields removed), or `"Running <name>..."` without one. Arguments that do not
   * validate also give `"Running <name>..."`: a status line is never rendered from unvalidated input, so it shows
   * no blanks and no text the schema does not allow. A status function that throws gives the same fallback.
   */
  formatStatus(args: unknown): string {
    const fallback = `Running ${this.name}...`;
    if (this.status === undefined) return fallback;
    const parsed = this.parseArgs(args);
    if (!parsed.ok) return fallback;
    try {
      return this.status(parsed.params);
    } catch {
      return fallback;
    }
  }

  /**
   * Turns a model's arguments (an object, or the JSON text a provider sends) into validated params: a fresh copy
   * (deep when the schema has defaults to apply or a value is an object or array, else of the top level), so neither
   * the pipeline nor the tool changes what the caller passed; the nulls a strict-mode model sends for omitted optional
   * fields removed (before validation and defaults, without touching the caller's object; see `compileNullStripper`;
   * when that makes them invalid while the arguments as sent are valid, the arguments as sent are used);
   * schema defaults applied; then the fields the schema does not declare removed (see `compileUndeclaredStripper`).
   * Arguments that are absent (`undefined`, `null`, blank JSON text) stand for the schema's root `default` when it
   * declares one (zod's `z.object({...}).default({})`); without one, blank text is `{}` and `undefined` or `null` fail.
   * A failure carries the model-facing message: one line per offending field. Never throws: arguments a host passes that cannot be read as JSON data (a getter or Proxy trap that throws, a cycle) fail like
   * malformed JSON.
   */
  parseArgs(args: unknown): ParsedArgs {
    try {
      return this.parseData(args);
    } catch {
      return { ok: false, error: `Arguments for tool '${this.name}' could not be read as JSON data. Send the arguments as one JSON object.` };
    }
  }

  private parseData(sent: unknown): ParsedArgs {
    const args = this.rootDefault !== undefined && (sent === undefined || sent === null || (typeof sent === 'string' && sent.trim() === '')) ? this.rootDefault : sent;
    let data: unknown;
    // Whether `data` may hold a null for the null stripper to look at: JSON text without the word `null` cannot.
    let mayHoldNull = true;
    if (typeof args === 'string') {
      try {
        data = JSON.parse(args);
      } catch (error) {
        if (args.trim() === '') data = {};
        else return { ok: false, error: `Arguments for tool '${this.name}' are not valid JSON (${cutText((error as Error).message, MAX_PARSE_ERROR)}). Send the arguments as one complete JSON object.` };
      }
      // JSON text parses to an object of `Object.prototype` (a `__proto__` key is an own field), an array or a primitive.
      if (data === null || typeof data !== 'object' || Array.isArray(data)) return notAnObject(this.name, data);
      // Text without the word `null` holds none; a stripper that looks at a few fields only is cheaper than the scan.
      mayHoldNull = this.nullFieldsOnly || args.includes('null');
    } else {
      if (!isPlainArgs(args)) return notAnObject(this.name, args);
      const shape = topLevelShape(args);
      data = this.hasDefaults || shape === NESTED ? plainCopy(args) : { ...args };
      mayHoldNull = shape !== FLAT;
    }
    const stripped = mayHoldNull ? this.stripNulls(data) : data;
    const validate = this.validator();
    if (validate(stripped)) data = stripped;
    else {
      const errors = validate.errors ?? [];
      // A removed null may have been a value the schema takes (through another union branch than the one the stripper
      // followed): the arguments as sent are used when they are valid as they are.
      if (stripped === data) return { ok: false, error: describeValidationErrors(this.name, errors) };
      const first = [...errors];
      if (!validate(data)) return { ok: false, error: describeValidationErrors(this.name, first) };
    }
    if (this.stripUndeclared !== undefined) this.stripUndeclared(data);
    return { ok: true, params: data as Record<string, unknown> };
  }

  /** Runs the tool's code with validated params (from {@link parseArgs}); injected dependencies are resolved here. */
  invoke(params: Record<string, unknown>, invocation: Invocation): unknown {
    return this.checkOutput(this.body(params, invocation));
  }

  /**
   * Runs the tool through its own middleware chain (first = outermost), yielding chunks whether the body streams or
   * returns one value. Works outside any registry; params must be validated.
   */
  stream(params: Record<string, unknown>, invocation: Invocation): AsyncIterable<ToolChunk> {
    return streamTool(this, params, invocation);
  }

  /**
   * The tool's own permission verdict on a call). Default: the `permissions` hook if
   * given, else ASK when {@link needsApproval} holds for `input` (validated params), ALLOW when the call only reads,
   * and PASSTHROUGH (the engine's rules decide) for a tool with side effects or undeclared effects.
   */
  checkPermissions(input: Record<string, unknown>, context: PermissionContext): PermissionDecision | Promise<PermissionDecision> {
    return this.traits.checkPermissions ? this.traits.checkPermissions(input, context) : defaultCheckPermissions(this, input, context);
  }

  /** Whether this call only reads (default {@link isReadOnly}). */
  checkReadOnly(input: Record<string, unknown>): boolean {
    return this.traits.readOnlyWhen ? this.traits.readOnlyWhen(input) : this.isReadOnly;
  }

  /**
   * Whether this tool judges rule content (`Tool(content)`): a `matchRule` hook was given or a subclass overrides
   * {@link matchRule}. The permission engine refuses content rules about a tool without one, which would match nothing.
   */
  get hasRuleMatcher(): boolean {
    return this.traits.matchRule !== undefined || Object.getPrototypeOf(this).matchRule !== Tool.prototype.matchRule;
  }

  /** Whether a rule's content pattern covers this call (default: false, see docs/permissions.md). */
  matchRule(ruleContent: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): boolean | Promise<boolean> {
    return this.traits.matchRule ? this.traits.matchRule(ruleContent, input, context, behavior) : false;
  }

  /** Rules that would allow this call next time (default: one tool-wide allow rule). */
  generateSuggestions(input: Record<string, unknown>, context?: PermissionContext): PermissionRule[] {
    return this.traits.generateSuggestions ? this.traits.generateSuggestions(input, this.name, context) : defaultSuggestions(this.name);
  }
}

/** Top-level values that are all neither null nor an object or array. */
const FLAT = 0;
/** Some top-level value is null (an own field), none is an object or array. */
const FLAT_WITH_NULL = 1;
/** Some top-level value is an object or array: the tool could then change what the caller still holds (deep copy). */
const NESTED = 2;

/**
 * {@link isPlainObject} for a call's arguments, answered without a call into the engine for the usual object: reading
 * `constructor` first gives the optimising compiler the object's shape, from which it answers `Object.getPrototypeOf`
 * (alone, that is a runtime call on Node 20, a noticeable share of a whole call). Anything else takes the full check.
 */
function isPlainArgs(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  return ((value as { constructor?: unknown }).constructor === Object && Object.getPrototypeOf(value) === Object.prototype) || isPlainObject(value);
}

/** What the top-level values of `args` are (see {@link FLAT}, {@link FLAT_WITH_NULL}, {@link NESTED}), in one pass. */
function topLevelShape(args: Record<string, unknown>): number {
  let shape = FLAT;
  for (const key in args) {
    const value = args[key];
    if (value === null) {
      if (Object.hasOwn(args, key)) shape = FLAT_WITH_NULL;
    } else if (typeof value === 'object') return NESTED;
  }
  return shape;
}

function notAnObject(name: string, value: unknown): ParsedArgs {
  const kind = value === null ? 'null' : value === undefined ? 'nothing' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'a non-plain object' : `a ${typeof value}`;
  return { ok: false, error: `Arguments for tool '${name}' must be a JSON object with named fields, got ${kind}.` };
}

function describeSchema(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  const type = (value as { type?: unknown }).type;
  if (type !== undefined) return `type ${JSON.stringify(type)}`;
  const keys = Object.keys(value);
  return keys.length ? `a schema with ${keys.join(', ')}` : 'an empty schema';
}
