// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh), with TypeBox from the
// user's own @sinclair/typebox, TypeBox 0.34 (installed beside the library), instead of agenttoolkit/typebox (which
// serves TypeBox 1.x): agenttoolkit.mjs's tool and calls, TypeBox 0.34 loaded the way a project that already depends
// on it loads it. agenttoolkit-user-typebox1.mjs does the same with the user's own `typebox` 1.x.
// tools.action({ params: TypeBox object }) then tools.execute(name, args): resolution, validation (Ajv, all errors,
// model-facing message on failure; the validator is compiled on the first call), invoke, ActionResult. Invalid input does NOT throw: it returns a failed
// ActionResult whose `error` lists every offending field.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { TOOL_NAME, TOOL_DESCRIPTION, validArgs, invalidArgs, validJson, INVALID_JSON, expectSum } from '../workload.mjs';

const dir = process.env.AGENTTOOLKIT_DIR;
if (!dir) throw new Error('Set AGENTTOOLKIT_DIR to the agenttoolkit checkout (with npm run build done).');
const require = createRequire(join(dir, 'package.json'));

export const meta = {
  id: 'agenttoolkit-user-typebox',
  label: "agenttoolkit (the user's own @sinclair/typebox 0.34)",
  group: 'library',
  packages: ['agenttoolkit', '@sinclair/typebox'],
};

function define({ Tools, Type }) {
  const tools = new Tools();
  tools.action(
    { name: TOOL_NAME, description: TOOL_DESCRIPTION, params: Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) }) },
    async ({ a, b }) => a + b,
  );
  return tools;
}

// TypeBox through the checkout's node_modules (this folder has none of its own). Its CommonJS build loaded this way
// measured cheaper in cold start than its ES module build in side-by-side runs on a loaded machine.
const load = async () => ({ ...(await import(join(dir, 'dist', 'index.js'))), Type: (await import(require.resolve('@sinclair/typebox'))).Type });

export async function setup() {
  const tools = define(await load());
  const isErr = (r) => r?.ok === false && typeof r.error === 'string';
  return {
    cases: [
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
      {
        id: 'execute-json',
        name: 'tools.execute(name, jsonText)',
        input: 'json',
        valid: (i) => tools.execute(TOOL_NAME, validJson(i)).then((r) => r.result),
        invalid: () => tools.execute(TOOL_NAME, INVALID_JSON),
        checkValid: (r, i) => r === expectSum(i),
        checkInvalid: isErr,
        note: 'the model\'s argument text parsed inside execute',
      },
    ],
  };
}

export async function coldStart() {
  const t0 = performance.now();
  const lib = await load();
  const t1 = performance.now();
  const tools = define(lib);
  const t2 = performance.now();
  const result = (await tools.execute(TOOL_NAME, validArgs(1))).result;
  const t3 = performance.now();
  return { importMs: t1 - t0, defineMs: t2 - t1, firstCallMs: t3 - t2, result, ok: result === 3 };
}
