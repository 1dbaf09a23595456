// Jest transform for the ES-module-only NestJS packages: ts-jest compiles them to CommonJS (as jest.config.js does for
// typebox and arktype), after `import.meta.url`, which CommonJS has no form of, is replaced by the file's URL.
const { TsJestTransformer } = require('ts-jest');

const tsJest = new TsJestTransformer({ tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true }, diagnostics: false });
const META_URL = /\bimport\.meta\.url\b/g;
const withoutMeta = (source) => source.replace(META_URL, "require('node:url').pathToFileURL(__filename).href");

module.exports = {
  canInstrument: false,
  getCacheKey: (source, path, options) => tsJest.getCacheKey(withoutMeta(source), path, options) + ':meta-url',
  process: (source, path, options) => tsJest.process(withoutMeta(source), path, options),
};
