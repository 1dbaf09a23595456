/**
 * Workspace glob patterns, matched in time linear in the path for a given pattern.
 *
 * A glob compiled to a backtracking regular expression (picomatch's) takes exponential time on a crafted pattern:
 * `*a*a*a*a*a*a*a*a*b` against a 60-character name blocked the event loop for 40 s. This matcher simulates the
 * pattern as a nondeterministic automaton, twice nested (characters within a name, names within a path): it keeps
 * the set of pattern positions reachable so far and advances them all by one character (or one name) at a time, so a
 * match costs at most (pattern length x path length) steps and never backtracks.
 *
 * Grammar: `*` any run of characters within a name, `**` as a whole segment any number of names (none included),
 * `?` one character, `[abc]`, `[a-z]`, `[!abc]` or `[^abc]` one character of (or not of) a set, `{a,b}` alternatives
 * (nested allowed, at most {@link MAX_GLOB_ALTERNATIVES} once expanded), `\` makes the next character literal; every
 * other character (`(`, `)`, `|`, `!`, `+`, `@` included) is literal. Without `dot`, `*`, `?`, a class and `**` never
 * match a name's leading `.`. A trailing `/` matches folders only. `.` segments and doubled `/` are ignored.
 */

/** Most alternatives a pattern's braces may expand to. */
export const MAX_GLOB_ALTERNATIVES = 256;
/** Longest pattern, in UTF-16 code units, after brace expansion (all alternatives together). */
export const MAX_GLOB_EXPANDED_LENGTH = 65_536;

/** Counts the automaton's steps, for proofs of the matching cost. */
export interface GlobStepCounter {
  steps: number;
}

/** A compiled workspace glob. */
export interface WorkspaceGlob {
  /**
   * The folder (root-relative, `/`-separated, `''` for the root) below which every match lies: the literal leading
   * segments that every alternative shares. A walk may start there.
   */
  readonly base: string;
  /** Most names below {@link base} a match may have (`Infinity` when a `**` is present). */
  readonly depth: number;
  /** Whether only folders can match (the pattern ends with `/`). */
  readonly directoriesOnly: boolean;
  /** Whether the root-relative, `/`-separated `path` matches. */
  matches(path: string, counter?: GlobStepCounter): boolean;
}

/** Why a pattern was refused by {@link compileWorkspaceGlob}. */
export interface GlobRefusal {
  readonly refused: string;
}

type CharAtom = { readonly kind: 'star' } | { readonly kind: 'one'; test(ch: string): boolean; readonly dot: boolean };
type NameAtom = { readonly kind: 'globstar' } | { readonly kind: 'name'; readonly atoms: readonly CharAtom[]; readonly literal: string | undefined };

/**
 * Compiles `pattern` (see the module documentation for the grammar), or says why it is refused: braces that
 * expand past {@link MAX_GLOB_ALTERNATIVES} alternatives or {@link MAX_GLOB_EXPANDED_LENGTH} characters.
 */
export function compileWorkspaceGlob(pattern: string, options: { readonly dot?: boolean } = {}): WorkspaceGlob | GlobRefusal {
  const alternatives = expandBraces(pattern);
  if ('refused' in alternatives) return alternatives;
  const dot = options.dot === true;
  const directoriesOnly = /(^|[^\\])\/$/.test(pattern) || pattern === '/';
  const compiled = alternatives.map((text) => segmentsOf(text));
  const base = commonBase(compiled);
  const depth = Math.max(...compiled.map((segments) => (segments.some((s) => s.kind === 'globstar') ? Infinity : segments.length - base.length)));
  return {
    base: base.join('/'),
    depth,
    directoriesOnly,
    matches(path: string, counter?: GlobStepCounter): boolean {
      const names = path.split('/').filter((n) => n !== '' && n !== '.');
      return compiled.some((segments) => matchNames(segments, names, dot, counter));
    },
  };
}

/** The literal leading names every alternative shares, the last segment of each left out (the walk finds it). */
function commonBase(compiled: readonly (readonly NameAtom[])[]): string[] {
  const base: string[] = [];
  for (let i = 0; ; i++) {
    const first = compiled[0]![i];
    if (first === undefined || first.kind !== 'name' || first.literal === undefined) return base;
    const literal = first.literal;
    if (!compiled.every((segments) => i < segments.length - 1 && segments[i]!.kind === 'name' && (segments[i] as { literal?: string }).literal === literal)) return base;
    base.push(literal);
  }
}

/** Splits one brace-free alternative into name atoms. */
function segmentsOf(text: string): NameAtom[] {
  const segments: NameAtom[] = [];
  let current: CharAtom[] = [];
  let literal = '';
  let plain = true;
  const end = () => {
    if (current.length > 0) {
      const only = plain ? literal : undefined;
      if (only !== '.') segments.push(globstarOrName(current, only));
    }
    current = [];
    literal = '';
    plain = true;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      const next = String.fromCodePoint(text.codePointAt(i + 1)!);
      i += next.length;
      if (next === '/') {
        end();
        continue;
      }
      current.push(literalAtom(next));
      literal += next;
    } else if (ch === '/') {
      end();
    } else if (ch === '*') {
      current.push(STAR);
      plain = false;
      // A run of stars inside a name is one star; a whole-segment `**` is told apart in globstarOrName.
      if (text[i + 1] === '*') {
        let j = i;
        while (text[j + 1] === '*') j++;
        current.push(STAR);
        i = j;
      }
    } else if (ch === '?') {
      current.push(ANY_ONE);
      plain = false;
    } else if (ch === '[') {
      const cls = bracket(text, i);
      if (cls === undefined) {
        current.push(literalAtom(ch));
        literal += ch;
      } else {
        current.push(cls.atom);
        plain = false;
        i = cls.end;
      }
    } else {
      const full = String.fromCodePoint(text.codePointAt(i)!);
      i += full.length - 1;
      current.push(literalAtom(full));
      literal += full;
    }
  }
  end();
  return segments;
}

function globstarOrName(atoms: readonly CharAtom[], literal: string | undefined): NameAtom {
  if (atoms.length === 2 && atoms[0] === STAR && atoms[1] === STAR) return GLOBSTAR;
  // Two stars in a row inside a name mean one.
  const merged = atoms.filter((a, k) => !(a === STAR && atoms[k - 1] === STAR));
  return { kind: 'name', atoms: merged, literal };
}

const STAR: CharAtom = Object.freeze({ kind: 'star' });
const GLOBSTAR: NameAtom = Object.freeze({ kind: 'globstar' });
const ANY_ONE: CharAtom = Object.freeze({ kind: 'one', test: () => true, dot: false });

function literalAtom(ch: string): CharAtom {
  return { kind: 'one', test: (other) => other === ch, dot: ch === '.' };
}

/**
 * A bracket expression starting at `text[start]`, as a one-character test (a regular expression that matches one
 * character, which cannot backtrack), or undefined when it is not one (no closing `]`, or a `/` before it).
 */
function bracket(text: string, start: number): { atom: CharAtom; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (text[i] === '!' || text[i] === '^') {
    negate = true;
    i++;
  }
  const items: string[] = [];
  const chars: Array<{ ch: string; escaped: boolean }> = [];
  for (; i < text.length; i++) {
    let escaped = false;
    if (text[i] === '\\' && i + 1 < text.length) {
      escaped = true;
      i++;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length - 1;
    if (ch === '/') return undefined;
    if (ch === ']' && !escaped && chars.length > 0) {
      for (let k = 0; k < chars.length; k++) {
        const dash = chars[k + 1];
        if (dash !== undefined && dash.ch === '-' && !dash.escaped && k + 2 < chars.length && chars[k]!.ch <= chars[k + 2]!.ch) {
          items.push(`${classChar(chars[k]!.ch)}-${classChar(chars[k + 2]!.ch)}`);
          k += 2;
        } else {
          items.push(classChar(chars[k]!.ch));
        }
      }
      const regex = new RegExp(`^[${negate ? '^/' : ''}${items.join('')}]$`, 'u');
      return { atom: { kind: 'one', test: (other) => regex.test(other), dot: false }, end: i };
    }
    chars.push({ ch, escaped });
  }
  return undefined;
}

function classChar(ch: string): string {
  return /[\\\][^-]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * Every alternative of the pattern's braces (`a{b,c{d,e}}` gives `ab`, `acd`, `ace`), escapes kept; a brace group
 * without a top-level comma, or never closed, is literal.
 */
function expandBraces(pattern: string): string[] | GlobRefusal {
  const expanded = expandFrom(pattern, 0, false);
  if ('refused' in expanded) return expanded;
  return expanded.items;
}

interface Expansion {
  readonly items: string[];
  readonly end: number;
}

/**
 * Expands `text` from `start` up to the end, or (inside a group) up to the `,` or `}` that ends the alternative.
 * @returns the alternatives and the index of the character that ended them.
 */
function expandFrom(text: string, start: number, inGroup: boolean): Expansion | GlobRefusal {
  let items = [''];
  let i = start;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      items = items.map((s) => s + ch + text[i + 1]);
      i++;
    } else if (inGroup && (ch === ',' || ch === '}')) {
      break;
    } else if (ch === '{') {
      const group = groupAt(text, i);
      if (group === undefined) {
        items = items.map((s) => s + ch);
        continue;
      }
      if ('refused' in group) return group;
      const product: string[] = [];
      for (const left of items) for (const right of group.items) product.push(left + right);
      const refusal = bounded(product);
      if (refusal !== undefined) return refusal;
      items = product;
      i = group.end;
    } else {
      items = items.map((s) => s + ch);
    }
    const refusal = bounded(items);
    if (refusal !== undefined) return refusal;
  }
  return { items, end: i };
}

/** The alternatives of the group opening at `text[open]`, or undefined when it is literal (never closed, no comma). */
function groupAt(text: string, open: number): Expansion | GlobRefusal | undefined {
  const all: string[] = [];
  let commas = 0;
  for (let i = open + 1; i <= text.length;) {
    const part = expandFrom(text, i, true);
    if ('refused' in part) return part;
    if (part.end >= text.length) return undefined;
    all.push(...part.items);
    const refusal = bounded(all);
    if (refusal !== undefined) return refusal;
    if (text[part.end] === '}') return commas === 0 ? undefined : { items: all, end: part.end };
    commas++;
    i = part.end + 1;
  }
  return undefined;
}

function bounded(items: readonly string[]): GlobRefusal | undefined {
  if (items.length > MAX_GLOB_ALTERNATIVES) {
    return { refused: `its braces expand to more than ${MAX_GLOB_ALTERNATIVES} alternatives; use fewer or smaller {a,b} groups, or run several searches` };
  }
  let length = 0;
  for (const item of items) length += item.length;
  if (length > MAX_GLOB_EXPANDED_LENGTH) {
    return { refused: `its braces expand to more than ${MAX_GLOB_EXPANDED_LENGTH} characters; use a shorter pattern` };
  }
  return undefined;
}

/** Whether the names match the segment atoms: the set of reachable positions, advanced one name at a time. */
function matchNames(segments: readonly NameAtom[], names: readonly string[], dot: boolean, counter: GlobStepCounter | undefined): boolean {
  let states = closure(new Set([0]), segments);
  for (const name of names) {
    const next = new Set<number>();
    const hidden = name.startsWith('.');
    for (const p of states) {
      if (counter !== undefined) counter.steps++;
      const atom = segments[p];
      if (atom === undefined) continue;
      if (atom.kind === 'globstar') {
        if (dot || !hidden) next.add(p);
      } else if (matchChars(atom.atoms, name, dot, counter)) {
        next.add(p + 1);
      }
    }
    if (next.size === 0) return false;
    states = closure(next, segments);
  }
  return states.has(segments.length);
}

/** Adds the positions reachable by letting each star (or globstar) match nothing. */
function closure<A extends { readonly kind: string }>(states: Set<number>, atoms: readonly A[]): Set<number> {
  for (const p of states) {
    // A Set visits what is added while iterating: the closure is complete when the loop ends.
    const atom = atoms[p];
    if (atom !== undefined && (atom.kind === 'star' || atom.kind === 'globstar')) states.add(p + 1);
  }
  return states;
}

/** Whether one name matches its character atoms, code point by code point. */
function matchChars(atoms: readonly CharAtom[], name: string, dot: boolean, counter: GlobStepCounter | undefined): boolean {
  let states = closure(new Set([0]), atoms);
  let first = true;
  for (const ch of name) {
    const next = new Set<number>();
    const hidden = first && ch === '.';
    for (const p of states) {
      if (counter !== undefined) counter.steps++;
      const atom = atoms[p];
      if (atom === undefined) continue;
      if (atom.kind === 'star') {
        if (dot || !hidden) next.add(p);
      } else if ((dot || !hidden || atom.dot) && atom.test(ch)) {
        next.add(p + 1);
      }
    }
    if (next.size === 0) return false;
    states = closure(next, atoms);
    first = false;
  }
  return states.has(atoms.length);
}
