/**
 * The property of the program's `tools` object for each tool name. Registered names are 1 to 64 of `A-Z a-z 0-9 _ -`:
 *
 * - a name that is a JavaScript identifier is its own property (`tools.get_weather`);
 * - otherwise each `-` becomes `_` and a leading digit gets a `_` before it (`read-file` is `tools.read_file`,
 *   `7zip` is `tools._7zip`), unless that identifier is taken by another exposed tool's name or mapping, in which
 *   case the tool keeps its name as a quoted property (`tools["read-file"]`).
 *
 * Names earlier in `names` win a clash. Each tool has exactly the one property returned here, so the program and
 * the declarations agree on one spelling.
 */
export function programNames(names: readonly string[]): Map<string, string> {
  const taken = new Set(names.filter(isIdentifier));
  const keys = new Map<string, string>();
  for (const name of names) {
    if (isIdentifier(name)) {
      keys.set(name, name);
      continue;
    }
    const mapped = identifierOf(name);
    if (taken.has(mapped)) keys.set(name, name);
    else {
      taken.add(mapped);
      keys.set(name, mapped);
    }
  }
  return keys;
}

/** `name` with each `-` as `_`, and `_` before a leading digit. */
function identifierOf(name: string): string {
  const replaced = name.replace(/-/g, '_');
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
}

/** Whether `key` is written `tools.<key>` (an identifier name; reserved words are valid property names). */
export function isIdentifier(key: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);
}
