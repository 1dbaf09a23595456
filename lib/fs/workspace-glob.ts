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

import { bracketClass } from './bracket-class';

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

type CharAtom = { readonly kind: 'star' } | { readonly kind: 'one'; test(ch: string): boolean; readonly dot: boolean; readonly source?: string };
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
  const parsed = alternatives.map((text) => segmentsOf(text));
  const base = commonBase(parsed);
  const depth = Math.max(...parsed.map((segments) => (segments.some((s) => s.kind === 'globstar') ? Infinity : segments.length - base.length)));
  const compiled = parsed.map((segments) => segments.map((atom) => compileName(atom, atom.kind === 'name' ? atom.atoms : undefined)));
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
const ANY_ONE: CharAtom = Object.freeze({ kind: 'one', test: () => true, dot: false, source: '.' });

function literalAtom(ch: string): CharAtom {
  return { kind: 'one', test: (other) => other === ch, dot: ch === '.', source: ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&') };
}

/**
 * A bracket expression starting at `text[start]`, as a one-character test (a regular expression that matches one
 * character, which cannot backtrack), or undefined when it is not one (see {@link bracketClass}).
 */
function bracket(text: string, start: number): { atom: CharAtom; end: number } | undefined {
  const cls = bracketClass(text, start, 'chars');
  if (cls === undefined) return undefined;
  const regex = new RegExp(`^${cls.source}$`, 'u');
  return { atom: { kind: 'one', test: (other) => regex.test(other), dot: false, source: cls.source }, end: cls.end };
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
function matchNames(segments: readonly CompiledName[], names: readonly string[], dot: boolean, counter: GlobStepCounter | undefined): boolean {
  const size = segments.length + 1;
  let states = new Uint8Array(size);
  let next = new Uint8Array(size);
  states[0] = 1;
  close(states, segments);
  for (const name of names) {
    next.fill(0);
    const hidden = name.charCodeAt(0) === 46;
    let any = false;
    for (let p = 0; p < segments.length; p++) {
      if (states[p] === 0) continue;
      if (counter !== undefined) counter.steps++;
      const atom = segments[p]!;
      if (atom.globstar) {
        if (dot || !hidden) {
          next[p] = 1;
          any = true;
        }
      } else if (atom.test(name, dot, counter)) {
        next[p + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    [states, next] = [next, states];
    close(states, segments);
  }
  return states[segments.length] === 1;
}

/** Adds the positions reachable by letting each star (or globstar) match nothing. */
function close(states: Uint8Array, atoms: ReadonlyArray<{ readonly globstar?: boolean; readonly kind?: string }>): void {
  for (let p = 0; p < atoms.length; p++) {
    const atom = atoms[p]!;
    if (states[p] === 1 && (atom.globstar === true || atom.kind === 'star')) states[p + 1] = 1;
  }
}

/** Whether one name matches its character atoms, code point by code point (the automaton, for several stars). */
function matchChars(atoms: readonly CharAtom[], name: string, dot: boolean, counter: GlobStepCounter | undefined): boolean {
  const size = atoms.length + 1;
  let states = new Uint8Array(size);
  let next = new Uint8Array(size);
  states[0] = 1;
  close(states, atoms);
  let first = true;
  for (const ch of name) {
    next.fill(0);
    const hidden = first && ch === '.';
    let any = false;
    for (let p = 0; p < atoms.length; p++) {
      if (states[p] === 0) continue;
      if (counter !== undefined) counter.steps++;
      const atom = atoms[p]!;
      if (atom.kind === 'star') {
        if (dot || !hidden) {
          next[p] = 1;
          any = true;
        }
      } else if ((dot || !hidden || atom.dot) && atom.test(ch)) {
        next[p + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    [states, next] = [next, states];
    close(states, atoms);
    first = false;
  }
  return states[atoms.length] === 1;
}

/** A name atom ready to test names: a globstar, or a test of one name. */
type CompiledName = { readonly globstar: true } | { readonly globstar: false; test(name: string, dot: boolean, counter: GlobStepCounter | undefined): boolean };

/**
 * A name atom as a test. A name with at most one star is tested by a regular expression, whose one star can only
 * be retried at each position (cost at most name length x pattern length, no nested backtracking); a name with
 * several stars by the automaton.
 */
function compileName(atom: NameAtom, source: readonly CharAtom[] | undefined): CompiledName {
  if (atom.kind === 'globstar') return COMPILED_GLOBSTAR;
  const atoms = atom.atoms;
  const stars = atoms.filter((a) => a.kind === 'star').length;
  const regexSource = stars <= 1 && source !== undefined ? toRegex(atoms) : undefined;
  if (regexSource !== undefined) {
    const hiddenAllowed = atoms[0] !== undefined && atoms[0].kind === 'one' && atoms[0].dot;
    const withDot = new RegExp(`^${regexSource}$`, 'su');
    const withoutDot = hiddenAllowed ? withDot : new RegExp(`^(?!\\.)${regexSource}$`, 'su');
    return { globstar: false, test: (name, dot, counter) => (counter === undefined ? (dot ? withDot : withoutDot).test(name) : matchChars(atoms, name, dot, counter)) };
  }
  return { globstar: false, test: (name, dot, counter) => matchChars(atoms, name, dot, counter) };
}

const COMPILED_GLOBSTAR: CompiledName = Object.freeze({ globstar: true });

/** The regular expression source of a name's atoms, or undefined when one atom has none. */
function toRegex(atoms: readonly CharAtom[]): string | undefined {
  let out = '';
  for (const atom of atoms) {
    if (atom.kind === 'star') out += '.*';
    else if (atom.source === undefined) return undefined;
    else out += atom.source;
  }
  return out;
}
