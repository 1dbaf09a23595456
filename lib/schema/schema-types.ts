/**
 * The schema types of the public API, structural on purpose: they match TypeBox schemas whichever copy of TypeBox's
 * declarations a project resolves (its CommonJS and ES module typings declare distinct `Kind` symbols, so naming
 * TypeBox's own `TObject` here would make an ES module project's schemas unassignable), and they accept plain JSON
 * Schema objects too.
 */

/** Any JSON Schema: a TypeBox schema (`Type.String()`, ...) or a plain JSON Schema object. */
export type Schema = object;

/** An object schema: `Type.Object({...})`, or a plain `{ type: 'object', properties: {...} }`. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties?: object;
}

/**
 * The value a schema describes: TypeBox's static type (read from its `static` member) for a TypeBox schema, and
 * `Record<string, unknown>` for a plain JSON Schema object. Use it for the params a tool method receives:
 * `refund(params: Static<typeof RefundParams>)`.
 */
export type Static<S> = S extends { readonly static: infer T } ? T : Record<string, unknown>;
