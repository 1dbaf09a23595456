import { defineField, isNode, pointer, type SchemaNode } from './schema-walk';

/** Reports why a schema cannot be converted: the path, the reason and how to fix it. Never returns. */
export type Refusal = (path: string, reason: string, fix: string) => never;

/**
 * Merges `allOf` parts that are plain objects (what `Type.Intersect` of objects produces) into one object: fields
 * and `required` lists combined, `unevaluatedProperties: false` written as `additionalProperties: false` (the same
 * rule once every field is declared in one place), any other `unevaluatedProperties` dropped. For the root of every
 * format (providers refuse `allOf` there) and for formats that have no `allOf` at all (OpenAI strict mode, Gemini);
 * local validation keeps using the original schema.
 *
 * @param refuse - called for a part that is not a plain object (a union, a reference, a map), a field declared twice,
 *   or a part closed to the fields of another part (no value could satisfy both).
 */
export function mergeAllOf(node: SchemaNode, path: string, refuse: Refusal): SchemaNode {
  const { allOf, unevaluatedProperties: closed, ...rest } = node;
  const properties: SchemaNode = isNode(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<string>(Array.isArray(rest.required) ? (rest.required as string[]) : []);
  (allOf as unknown[]).forEach((part, i) => {
    const at = pointer(pointer(path, 'allOf'), i);
    if (!isNode(part) || part.type !== 'object' || part.allOf || part.anyOf || part.oneOf || isNode(part.additionalProperties) || isNode(part.patternProperties)) {
      refuse(at, 'is part of an allOf that is not a set of plain objects', 'Write the combined object out (Type.Composite merges objects).');
    }
    for (const [key, sub] of Object.entries(isNode(part.properties) ? part.properties : {})) {
      if (Object.hasOwn(properties, key)) refuse(pointer(pointer(at, 'properties'), key), 'declares a field another allOf part declares too', 'Declare each field once.');
      defineField(properties, key, sub);
    }
    for (const key of Array.isArray(part.required) ? (part.required as string[]) : []) required.add(key);
  });
  (allOf as SchemaNode[]).forEach((part, i) => {
    if (part.additionalProperties !== false && part.unevaluatedProperties !== false) return;
    const own = isNode(part.properties) ? part.properties : {};
    const other = Object.keys(properties).find((key) => !Object.hasOwn(own, key));
    if (other !== undefined) {
      refuse(pointer(pointer(path, 'allOf'), i), `is closed (additionalProperties or unevaluatedProperties false) to the field '${other}' that another allOf part declares, so no value has both`, 'Close the combined object instead (unevaluatedProperties: false beside the allOf).');
    }
  });
  return { ...rest, ...(closed === false ? { additionalProperties: false } : {}), type: 'object', properties, required: [...required] };
}
