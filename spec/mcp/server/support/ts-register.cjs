// Lets a child `node` process run the TypeScript sources directly (`node -r ./ts-register.cjs file.ts`), so the stdio
// spec starts the real example as its own process without a build step. Transpile only: the type check is tsc's job.
const ts = require('typescript');
const fs = require('node:fs');
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};

// With AGENTTOOLKIT_ROOT set, `agenttoolkit` and `agenttoolkit/<area>` resolve to the sources, as a published
// package's imports would (the docs snippets are written against the package name).
if (process.env.AGENTTOOLKIT_ROOT) {
  const Module = require('node:module');
  const path = require('node:path');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const match = /^agenttoolkit(?:\/(.+))?$/.exec(request);
    if (match) request = path.join(process.env.AGENTTOOLKIT_ROOT, 'lib', match[1] ?? '', 'index.ts');
    return resolve.call(this, request, ...rest);
  };
}
