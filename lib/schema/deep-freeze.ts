/** Freezes `value` and everything reachable from it (plain JSON data), in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key in value) {
      const child = value[key];
      if (child !== null && typeof child === 'object') deepFreeze(child);
    }
    Object.freeze(value);
  }
  return value;
}
