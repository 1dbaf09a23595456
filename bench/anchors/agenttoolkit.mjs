// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh, with
// agenttoolkit-common.mjs, which holds the tool, the cases and the cold-start timing).
// TypeBox 1.x's `Type` from the package's own built agenttoolkit/typebox entry (one bundled file; neither `typebox`
// nor @sinclair/typebox loaded); agenttoolkit-user-typebox1.mjs is the same tool with the user's own `typebox` 1.x,
// agenttoolkit-user-typebox.mjs with the user's own @sinclair/typebox 0.34, agenttoolkit-json.mjs with plain JSON Schema.
import { agenttoolkitAdapter, checkout, typeboxParams } from './agenttoolkit-common.mjs';

export const meta = {
  id: 'agenttoolkit',
  label: 'agenttoolkit',
  group: 'library',
  packages: ['agenttoolkit'],
};

export const { setup, coldStart } = agenttoolkitAdapter({
  load: async () => ({ ...(await import(checkout.path('dist', 'index.js'))), Type: (await import(checkout.path('dist', 'typebox', 'index.js'))).Type }),
  params: typeboxParams,
});
