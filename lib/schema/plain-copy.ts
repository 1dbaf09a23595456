/**
 * A deep copy of JSON-like data (plain objects, arrays, primitives), so that validation defaults and the tool's own
 * changes never reach the caller's arguments. Keys such as `__proto__` and `constructor` are copied as ordinary own
 * data properties: they can neither change a prototype nor pollute `Object.prototype`.
 */
export function plainCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plainCopy(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = plainCopy((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    else out[key] = child;
  }
  return out;
}

/** True for `{...}` objects (prototype `Object.prototype` or null): what a JSON object parses to. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
