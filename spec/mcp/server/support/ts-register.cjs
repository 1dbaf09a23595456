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
