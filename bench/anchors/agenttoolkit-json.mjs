// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh), with the params as a
// plain JSON Schema object instead of a TypeBox-built one: the same tools.action + tools.execute path as
// agenttoolkit.mjs, without loading a schema library. Its cold-start row separates the library's own cost from
// TypeBox's.
import { join } from 'node:path';
import { TOOL_NAME, TOOL_DESCRIPTION, validArgs, invalidArgs, validJson, INVALID_JSON, expectSum } from '../workload.mjs';

const dir = process.env.AGENTTOOLKIT_DIR;
if (!dir) throw new Error('Set AGENTTOOLKIT_DIR to the agenttoolkit checkout (with npm run build done).');

export const meta = {
  id: 'agenttoolkit-json',
  label: 'agenttoolkit (plain JSON Schema)',
  group: 'library',
  packages: ['agenttoolkit'],
};

const PARAMS = {
  type: 'object',
  properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } },
  required: ['a', 'b'],
};

function define({ Tools }) {
  const tools = new Tools();
  tools.action({ name: TOOL_NAME, description: TOOL_DESCRIPTION, params: PARAMS }, async ({ a, b }) => a + b);
  return tools;
}

const load = () => import(join(dir, 'dist', 'index.js'));

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
