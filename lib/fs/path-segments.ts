/**
 * Applies `.` and `..` to path segments as text (no disk access): empty and `.` segments are dropped, `..` removes
 * the segment before it. `base` segments come first (already normalized).
 *
 * @param parts - the segments to apply.
 * @param onEscape - builds the error thrown when `..` would climb above the first segment (the root).
 * @param base - segments to start from.
 * @returns segments with no empty, `.` or `..` segment.
 */
export function normalizeSegments(parts: readonly string[], onEscape: () => Error, base: readonly string[] = []): string[] {
  const out = [...base];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) throw onEscape();
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}
