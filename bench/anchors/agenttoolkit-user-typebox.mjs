// agenttoolkit adapter for ../shared/bench-anchors (copied there by scripts/bench-anchors.sh, with
// agenttoolkit-common.mjs), with TypeBox from the user's own @sinclair/typebox, TypeBox 0.34 (installed beside the
// library), instead of agenttoolkit/typebox (which serves TypeBox 1.x): agenttoolkit.mjs's tool and calls, TypeBox
// 0.34 loaded the way a project that already depends on it loads it. agenttoolkit-user-typebox1.mjs does the same
// with the user's own `typebox` 1.x.
import { agenttoolkitAdapter, checkout, typeboxParams } from './agenttoolkit-common.mjs';

export const meta = {
  id: 'agenttoolkit-user-typebox',
  label: "agenttoolkit (the user's own @sinclair/typebox 0.34)",
  group: 'library',
  packages: ['agenttoolkit', '@sinclair/typebox'],
};

// Its CommonJS build, through the checkout's node_modules: loaded this way it measured cheaper in cold start than its
// ES module build in side-by-side runs on a loaded machine.
export const { setup, coldStart } = agenttoolkitAdapter({
  load: async () => ({ ...(await import(checkout.path('dist', 'index.js'))), Type: (await import(checkout.require.resolve('@sinclair/typebox'))).Type }),
  params: typeboxParams,
});
