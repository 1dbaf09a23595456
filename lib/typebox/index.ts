/**
 * `agenttoolkit/typebox`: TypeBox 0.34's schema builder, `Type`, without installing or loading `@sinclair/typebox`
 * at run time. The published JavaScript of this entry is one file holding a copy of TypeBox's type builder (MIT
 * licence, notice kept in the file), bundled when the package is built: it loads in a few milliseconds, where
 * TypeBox's own build is a few hundred small modules. The types are TypeBox's own: they come from `@sinclair/typebox`
 * (an optional peer dependency), so a TypeScript project installs it (a devDependency is enough) to type the schemas.
 *
 * The schemas are TypeBox's: plain JSON Schema objects carrying TypeBox's markers, which are registered symbols
 * (`Symbol.for('TypeBox.Kind')`, ...), so they are the same markers as those of any other copy of TypeBox 0.34. A
 * schema built here works with the project's own `@sinclair/typebox` (`Value.Check`, `TypeCompiler.Compile`) and
 * a schema built with that one works with this library alike. Type a tool's params with `Static` from
 * `agenttoolkit`. See docs/tools.md.
 */
export { Type } from '@sinclair/typebox';
export type {
  ArrayOptions,
  NumberOptions,
  ObjectOptions,
  SchemaOptions,
  StringOptions,
  TAny,
  TArray,
  TBoolean,
  TEnum,
  TInteger,
  TLiteral,
  TNull,
  TNumber,
  TObject,
  TOptional,
  TProperties,
  TRecord,
  TSchema,
  TString,
  TTuple,
  TUnion,
  TUnknown,
} from '@sinclair/typebox';
