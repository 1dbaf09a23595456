import { quoted, SandboxError, type SandboxErrorCode } from './errors';

/**
 * Checks an environment map: keys non-empty, without `=` or NUL; values strings without NUL (the rules of
 * `execve`). Returns a frozen copy.
 *
 * @param env - the map to check.
 * @param code - the error code to throw (`POLICY_INVALID` for a policy, `OPTIONS_INVALID` for a call).
 * @param where - what the map is, for the message (`policy environment`, `execute env`).
 * @throws SandboxError naming the offending key; the value is never quoted.
 */
export function checkEnvironment(env: Readonly<Record<string, string>>, code: SandboxErrorCode, where: string): Readonly<Record<string, string>> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === '' || key.includes('=') || key.includes('\0')) {
      throw new SandboxError(code, `${where}: invalid variable name ${nameOnly(key)}; names must be non-empty and contain neither '=' nor NUL.`);
    }
    if (typeof value !== 'string' || value.includes('\0')) {
      throw new SandboxError(code, `${where}: the value of ${quoted(key)} must be a string without NUL characters.`);
    }
    copy[key] = value;
  }
  return Object.freeze(copy);
}

/** A malformed name as a message shows it: only what precedes an `=` (after it, the text is a value). */
function nameOnly(key: string): string {
  const cut = key.indexOf('=');
  return cut < 0 ? quoted(key) : `${quoted(key.slice(0, cut))} followed by '=' and a value`;
}

/**
 * Reads the host variables named in `names` from `source` (default `process.env`), failing fast when one is missing.
 * The values are returned for the backend to pass to the sandboxed process only; callers must keep them out of
 * command lines, logs and errors.
 *
 * @param names - the variable names to forward.
 * @throws SandboxError `OPTIONS_INVALID` for a malformed name, `ENVIRONMENT_MISSING` for an unset variable. Messages
 * name the variable, never its value.
 */
export function readInheritedEnvironment(names: readonly string[], source: NodeJS.ProcessEnv = process.env): Readonly<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of names) {
    checkEnvironment({ [name]: '' }, 'OPTIONS_INVALID', 'inheritEnvironment');
    const value = source[name];
    if (value === undefined) {
      throw new SandboxError('ENVIRONMENT_MISSING', `inheritEnvironment: ${quoted(name)} is not set in the host environment. Set it before creating the sandbox, or remove it from inheritEnvironment.`);
    }
    values[name] = value;
  }
  return checkEnvironment(values, 'OPTIONS_INVALID', 'inheritEnvironment');
}
