// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh, with
// agenttoolkit-common.mjs), with TypeBox from the user's own `typebox` 1.x (installed beside the library; ES modules
// only, loaded by import()) instead of agenttoolkit/typebox, which bundles the same line: agenttoolkit.mjs's tool and
// calls, TypeBox 1.x loaded the way a project that follows the docs and imports `typebox` itself loads it.
import { agenttoolkitAdapter, checkout, typeboxParams } from './agenttoolkit-common.mjs';

export const meta = {
  id: 'agenttoolkit-user-typebox1',
  label: "agenttoolkit (the user's own typebox 1.x)",
  group: 'library',
  packages: ['agenttoolkit', 'typebox'],
};

export const { setup, coldStart } = agenttoolkitAdapter({
  load: async () => ({ ...(await import(checkout.path('dist', 'index.js'))), Type: (await import(checkout.require.resolve('typebox'))).Type }),
  params: typeboxParams,
});
