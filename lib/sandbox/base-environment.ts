import { homedir } from 'node:os';

/**
 * `PATH` of a command in an isolated backend (bubblewrap; Docker when the image sets none): the Filesystem Hierarchy
 * Standard's program folders, the list Docker itself gives a container without one.
 */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * `LANG` of every command unless the host passes another: the C locale with UTF-8 characters, built into glibc since
 * 2.35 (no locale files needed) and what musl and busybox use anyway.
 */
export const SANDBOX_LANG = 'C.UTF-8';

/**
 * `TERM` of every command: output goes to a pipe, never a terminal, so programs that look at `TERM` print no colours
 * or cursor movements and start no full-screen pager (terminfo(5): `dumb` has no capabilities).
 */
export const SANDBOX_TERM = 'dumb';

/** The only variables a command gets without the host asking: see docs/sandbox.md, "The command's environment". */
export type BaseEnvironment = Readonly<{ PATH: string; HOME: string; LANG: string; TERM: string }>;

/**
 * The base environment inside an isolated backend: {@link SANDBOX_PATH}, `HOME=/tmp` (the one writable folder every
 * backend lays), {@link SANDBOX_LANG} and {@link SANDBOX_TERM}. Nothing comes from the host.
 */
export const ISOLATED_BASE_ENVIRONMENT: BaseEnvironment = Object.freeze({ PATH: SANDBOX_PATH, HOME: '/tmp', LANG: SANDBOX_LANG, TERM: SANDBOX_TERM });

/**
 * The base environment of a command run on the host itself (UnsafeLocalSandbox): the host's own `PATH` and `HOME`,
 * so the user's programs and files are found as in their shell, its `LANG` (else {@link SANDBOX_LANG}) and
 * {@link SANDBOX_TERM}. Read once, when the sandbox is built; no other host variable is taken.
 *
 * @param source - the host environment, default `process.env`.
 */
export function hostBaseEnvironment(source: NodeJS.ProcessEnv = process.env): BaseEnvironment {
  return Object.freeze({
    PATH: source.PATH ?? SANDBOX_PATH,
    HOME: source.HOME ?? homedir(),
    LANG: source.LANG ?? SANDBOX_LANG,
    TERM: SANDBOX_TERM,
  });
}
