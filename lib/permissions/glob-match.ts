/**
 * Wildcard matching in time bounded by the product of the two lengths, for path rule patterns.
 *
 * A regular expression built from a pattern such as `**` + `/a/**` + `/a/**` + `/b` backtracks exponentially on a
 * long path that nearly matches, and the path comes from the model: one call could block the process for minutes.
 * These matchers never backtrack further than the last star seen, the classic two-pointer wildcard algorithm, so a
 * match costs at most (pattern length x path length) steps, for the stars inside a name and for `**` across names.
 */

/** One element of a name pattern: a star (any run of characters), or a test of exactly one character. */
export type NameAtom = { readonly star: true } | { readonly star: false; one(ch: string, caseInsensitive: boolean): boolean };

/** One element of a path pattern: `**` (any number of names), or a test of exactly one name. */
export type SegmentAtom = { readonly star: true } | { readonly star: false; readonly atoms: readonly NameAtom[] };

/**
 * Whether `items` match `pattern`, where a star matches any run of items (none included) and every other element
 * exactly one item: on a mismatch, only the last star takes one more item.
 */
function matchSequence<P extends { readonly star: boolean }, T>(pattern: readonly P[], items: readonly T[], one: (p: P, item: T) => boolean): boolean {
  let p = 0;
  let t = 0;
  let starAt = -1;
  let starItem = 0;
  while (t < items.length) {
    const atom = pattern[p];
    if (atom !== undefined && atom.star) {
      starAt = p++;
      starItem = t;
    } else if (atom !== undefined && one(atom, items[t]!)) {
      p++;
      t++;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++starItem;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p]!.star) p++;
  return p === pattern.length;
}

/** Whether the name (one path segment) matches the name pattern; characters are code points. */
export function matchName(atoms: readonly NameAtom[], name: string, caseInsensitive: boolean): boolean {
  return matchSequence(atoms, Array.from(name), (atom, ch) => !atom.star && atom.one(ch, caseInsensitive));
}

/** Whether the names of a path match the path pattern. */
export function matchSegments(atoms: readonly SegmentAtom[], names: readonly string[], caseInsensitive: boolean): boolean {
  return matchSequence(atoms, names, (atom, name) => !atom.star && matchName(atom.atoms, name, caseInsensitive));
}

const folded = new Map<string, RegExp>();

/** A test for one literal character; without regard to case, it uses Unicode simple case folding (the `iu` flags). */
export function literalAtom(ch: string): NameAtom {
  return {
    star: false,
    one(other, caseInsensitive) {
      if (other === ch) return true;
      if (!caseInsensitive) return false;
      let regex = folded.get(ch);
      if (regex === undefined) {
        regex = new RegExp(`^${ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`, 'iu');
        if (folded.size > 4096) folded.clear();
        folded.set(ch, regex);
      }
      return regex.test(other);
    },
  };
}

/** A test for one character of a bracket expression, given as a regular expression class (`[a-z]`, `[^/x]`). */
export function classAtom(source: string): NameAtom {
  const exact = new RegExp(`^${source}$`, 'u');
  const anyCase = new RegExp(`^${source}$`, 'iu');
  return { star: false, one: (ch, caseInsensitive) => (caseInsensitive ? anyCase : exact).test(ch) };
}

/** Any one character (`?`). */
export const ANY_ONE: NameAtom = Object.freeze({ star: false, one: () => true });

/** A star within a name (`*`), or `**` across names. */
export const STAR = Object.freeze({ star: true as const });
