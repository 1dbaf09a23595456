import type { GeminiFunctionDeclaration, GeminiSchema, GeminiType } from './gemini-schema';

/** A {@link GeminiSchema} whose `type` is `T` at every level: the SDK's `Schema` when `T` is its `Type` enum. */
export type GeminiSchemaOf<T> = Omit<GeminiSchema, 'type' | 'anyOf' | 'items' | 'properties'> & {
  type?: T;
  anyOf?: Array<GeminiSchemaOf<T>>;
  items?: GeminiSchemaOf<T>;
  properties?: Record<string, GeminiSchemaOf<T>>;
};

/** A {@link GeminiFunctionDeclaration} typed with `T` for `type`. */
export interface GeminiFunctionDeclarationOf<T> {
  name: string;
  description: string;
  parameters: GeminiSchemaOf<T>;
}

/**
 * The declarations with every `type` taken from `typeEnum`, the `@google/genai` SDK's `Type` enum: TypeScript treats
 * that enum as nominal, so this is how typed code hands our output to the SDK without a cast. The values are the same
 * strings; only the static type changes.
 *
 * @example
 * ```ts
 * import { Type } from '@google/genai';
 * const functionDeclarations = withGeminiTypeEnum(tools.getSchema(ToolSchemaFormat.GEMINI), Type); // FunctionDeclaration[]
 * ```
 */
export function withGeminiTypeEnum<T>(declarations: readonly GeminiFunctionDeclaration[], typeEnum: { readonly [K in GeminiType]: T }): Array<GeminiFunctionDeclarationOf<T>> {
  const retype = (schema: GeminiSchema): GeminiSchemaOf<T> => {
    const { type, anyOf, items, properties, ...rest } = schema;
    const out: GeminiSchemaOf<T> = { ...rest };
    if (type !== undefined) out.type = typeEnum[type];
    if (anyOf !== undefined) out.anyOf = anyOf.map(retype);
    if (items !== undefined) out.items = retype(items);
    if (properties !== undefined) out.properties = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, retype(sub)]));
    return out;
  };
  return declarations.map((declaration) => ({ ...declaration, parameters: retype(declaration.parameters) }));
}
