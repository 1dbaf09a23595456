/**
 * `agenttoolkit/typebox`: TypeBox 1.x's schema builder, `Type` (the `typebox` package), without installing or
 * loading `typebox` at run time. The published JavaScript of this entry is one file holding a copy of TypeBox's type
 * builder (MIT licence, notice kept in the file), bundled when the package is built: it loads in a few milliseconds,
 * where `typebox` itself is a few hundred ES modules. The types are TypeBox's own: they come from `typebox` (an
 * optional peer dependency), so a TypeScript project installs it (a devDependency is enough) to type the schemas.
 *
 * The schemas are TypeBox 1.x's: plain JSON Schema objects whose markers are non-enumerable string-keyed properties
 * (`~kind`, `~optional`, `~readonly`), read by any other copy of TypeBox 1.x alike. A schema built here works with the
 * project's own `typebox` (`Compile` from `typebox/compile`, `Value.Check` from `typebox/value`, `Type.Object`,
 * `Type.Evaluate`) and a schema built with that one works with this library alike. Type a tool's params with
 * `Static` from `agenttoolkit` or from `typebox`, or `Type.Static`. See docs/tools.md.
 */
/** TypeBox 1.x's `Type` namespace (builders such as `Type.Object`, and types such as `Type.Static<typeof schema>`). */
export { Type } from 'typebox';
export type {
  TAny,
  TArray,
  TArrayOptions,
  TBoolean,
  TEnum,
  TInteger,
  TIntersect,
  TLiteral,
  TNull,
  TNumber,
  TNumberOptions,
  TObject,
  TObjectOptions,
  TOptional,
  TProperties,
  TReadonly,
  TRecord,
  TSchema,
  TSchemaOptions,
  TString,
  TStringOptions,
  TTuple,
  TUnion,
  TUnknown,
} from 'typebox';
