// What the agenttoolkit adapters for ../shared/bench-anchors share (copied there beside them by
// scripts/bench-anchors.sh; not an adapter itself: the anchors load adapters by id). Each adapter differs only in how
// it loads the library and builds the params schema. tools.action({ params }) then tools.execute(name, args):
// resolution, validation (Ajv, all errors, model-facing message on failure; the validator is compiled on the first
// call), invoke, ActionResult. Invalid input does NOT throw: it returns a failed ActionResult whose `error` lists
// every offending field. No library is imported here at top level, so loading an adapter costs nothing in cold start.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { TOOL_NAME, TOOL_DESCRIPTION, validArgs, invalidArgs, validJson, INVALID_JSON, expectSum } from '../workload.mjs';

const dir = process.env.AGENTTOOLKIT_DIR;
if (!dir) throw new Error('Set AGENTTOOLKIT_DIR to the agenttoolkit checkout (with npm run build done).');

/** A path inside the checkout, and `require` resolving from it (the anchors folder has no node_modules of its own). */
export const checkout = { path: (...parts) => join(dir, ...parts), require: createRequire(join(dir, 'package.json')) };

/**
 * The adapter's `setup` and `coldStart`. `load()` resolves to the library's exports plus whatever `params(lib)`
 * needs (e.g. `Type`); `params(lib)` builds the tool's params schema; `jsonCase`: also measure JSON text arguments.
 */
export function agenttoolkitAdapter({ load, params, jsonCase = true }) {
  function define(lib) {
    const tools = new lib.Tools();
    tools.action({ name: TOOL_NAME, description: TOOL_DESCRIPTION, params: params(lib) }, async ({ a, b }) => a + b);
    return tools;
  }

  async function setup() {
    const tools = define(await load());
    const isErr = (r) => r?.ok === false && typeof r.error === 'string';
    const cases = [
      {
        id: 'execute',
        name: 'tools.execute(name, args)',
        input: 'obj',
        primary: true,
        valid: (i) => tools.execute(TOOL_NAME, validArgs(i)).then((r) => r.result),
        invalid: () => tools.execute(TOOL_NAME, invalidArgs()),
        checkValid: (r, i) => r === expectSum(i),
        checkInvalid: isErr,
        note: 'invalid: returns a failed ActionResult (one line per field)',
      },
    ];
    if (jsonCase) {
      cases.push({
        id: 'execute-json',
        name: 'tools.execute(name, jsonText)',
        input: 'json',
        valid: (i) => tools.execute(TOOL_NAME, validJson(i)).then((r) => r.result),
        invalid: () => tools.execute(TOOL_NAME, INVALID_JSON),
        checkValid: (r, i) => r === expectSum(i),
        checkInvalid: isErr,
        note: 'the model\'s argument text parsed inside execute',
      });
    }
    return { cases };
  }

  async function coldStart() {
    const t0 = performance.now();
    const lib = await load();
    const t1 = performance.now();
    const tools = define(lib);
    const t2 = performance.now();
    const result = (await tools.execute(TOOL_NAME, validArgs(1))).result;
    const t3 = performance.now();
    return { importMs: t1 - t0, defineMs: t2 - t1, firstCallMs: t3 - t2, result, ok: result === 3 };
  }

  return { setup, coldStart };
}

/** The workload's params, `{ a: integer, b: integer, note?: string }`, built with a TypeBox `Type` (0.34 or 1.x). */
export const typeboxParams = ({ Type }) => Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) });
