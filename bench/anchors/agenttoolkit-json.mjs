// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh, with
// agenttoolkit-common.mjs), with the params as a plain JSON Schema object instead of a TypeBox-built one: the same
// tools.action + tools.execute path as agenttoolkit.mjs, without loading a schema library. Its cold-start row
// separates the library's own cost from TypeBox's.
import { agenttoolkitAdapter, checkout } from './agenttoolkit-common.mjs';

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

export const { setup, coldStart } = agenttoolkitAdapter({ load: () => import(checkout.path('dist', 'index.js')), params: () => PARAMS, jsonCase: false });
