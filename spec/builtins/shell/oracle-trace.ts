/**
 * The judge of the read-only oracle (read-only-oracle.ts): the system calls `strace -f` records while bash runs a
 * batch of commands, against what a reading program may do. Only what a command's own processes did counts (see
 * {@link callsByCommand}): the harness (strace, bwrap setting up the sandbox, the driver, timeout) is left out.
 */
import { basename } from 'node:path';

/**
 * The system calls traced: every one that writes, creates, removes, renames, links, changes modes, owners, times,
 * extended attributes, mounts, the clock or the host name, runs a program or talks to a network, and the forks
 * that tell whose process made a call.
 */
export const TRACED_SYSCALLS: readonly string[] = [
  'open', 'openat', 'openat2', 'creat', 'truncate', 'ftruncate',
  'unlink', 'unlinkat', 'rmdir', 'rename', 'renameat', 'renameat2', 'mkdir', 'mkdirat', 'mknod', 'mknodat',
  'link', 'linkat', 'symlink', 'symlinkat',
  'chmod', 'fchmod', 'fchmodat', 'chown', 'fchown', 'lchown', 'fchownat',
  'utime', 'utimes', 'utimensat', 'futimesat',
  'setxattr', 'lsetxattr', 'fsetxattr', 'removexattr', 'lremovexattr', 'fremovexattr',
  'mount', 'umount2', 'pivot_root', 'chroot', 'swapon', 'swapoff',
  'settimeofday', 'clock_settime', 'adjtimex', 'clock_adjtime', 'sethostname', 'setdomainname',
  'execve', 'execveat', 'connect', 'bind', 'sendto', 'sendmsg', 'clone', 'clone3', 'fork', 'vfork',
];

/** What a false read-only claim did. */
export type ViolationKind = 'write' | 'exec' | 'network' | 'system';

/** One system call a read-only command must not make, as strace printed it. */
export interface Violation {
  readonly kind: ViolationKind;
  readonly syscall: string;
}

/** One thing a reading program may do although the call looks like a write, and why. */
export interface Allowance {
  readonly reason: string;
  readonly allows: (call: Syscall) => boolean;
}

/** One parsed strace line. */
export interface Syscall {
  readonly pid: number;
  readonly name: string;
  readonly args: string;
  readonly result: string;
  readonly line: string;
}

const WRITE_FLAGS = /\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/;
const SORT_TEMPORARY = /^\/tmp\/sort[A-Za-z0-9]{6}$/;

/** The first string argument of a call (`openat(AT_FDCWD, "x", ...)` -> `x`), unescaped enough for comparison. */
function firstPath(args: string): string | undefined {
  const match = /"((?:[^"\\]|\\.)*)"/.exec(args);
  return match?.[1];
}

/**
 * What a reading program may do, each with its reason. Nothing else that writes, runs or connects passes: an
 * allowance names the exact path or pattern, never a whole folder.
 */
export const ALLOWANCES: readonly Allowance[] = [
  {
    reason: 'Opening /dev/null for writing discards output (git opens it read-write to fill closed standard descriptors); nothing changes.',
    allows: (c) => isOpen(c) && firstPath(c.args) === '/dev/null',
  },
  {
    reason: 'bash opens /dev/tty read-write to find its controlling terminal; the sandbox starts a new session without one (ENXIO), and a terminal is no file.',
    allows: (c) => isOpen(c) && firstPath(c.args) === '/dev/tty',
  },
  {
    reason: 'The standard output and error the caller already holds, opened by name (/dev/stdout, /dev/stderr, /dev/fd/1, /dev/fd/2).',
    allows: (c) => isOpen(c) && ['/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/proc/self/fd/1', '/proc/self/fd/2'].includes(firstPath(c.args) ?? ''),
  },
  {
    reason: 'sort(1) spills its input to temporary files $TMPDIR/sortXXXXXX (created exclusively, then removed) when its buffer (-S) fills; $TMPDIR is the sandbox\'s own /tmp.',
    allows: (c) => {
      const path = firstPath(c.args) ?? '';
      if (!SORT_TEMPORARY.test(path)) return false;
      return (isOpen(c) && /\bO_EXCL\b/.test(c.args)) || c.name === 'unlink' || c.name === 'unlinkat';
    },
  },
  {
    reason: "The C library's user and group lookups (nsswitch.conf: `files systemd`) ask the local name-service cache and systemd's user database over a unix socket: a query to this machine, nothing leaves it.",
    allows: (c) => c.name === 'connect' && /sa_family=AF_UNIX/.test(c.args) && /sun_path="(?:\/var)?\/run\/(?:nscd\/socket|systemd\/userdb\/[^"]+)"/.test(c.args),
  },
];

/**
 * Programs a program may run as part of what it is, with the reason. Any other program a command executes that the
 * analysis did not name is a false claim.
 */
export const HELPERS: ReadonlyMap<string, { readonly runs: readonly string[]; readonly reason: string }> = new Map([
  ['egrep', { runs: ['grep'], reason: "Debian's egrep is a script that runs grep -E" }],
  ['fgrep', { runs: ['grep'], reason: "Debian's fgrep is a script that runs grep -F" }],
]);

function isOpen(c: Syscall): boolean {
  return c.name === 'open' || c.name === 'openat' || c.name === 'openat2' || c.name === 'creat';
}

/** Parses strace's `-f` output, joining the `<unfinished ...>` and `<... resumed>` halves of interleaved calls. */
export function parseTrace(text: string): Syscall[] {
  const calls: Syscall[] = [];
  const pending = new Map<number, string>();
  for (const raw of text.split('\n')) {
    const head = /^(\d+) +(.*)$/.exec(raw);
    if (head === null) continue;
    const pid = Number(head[1]);
    let body = head[2]!;
    if (body.endsWith('<unfinished ...>')) {
      pending.set(pid, body.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(body);
    if (resumed !== null) {
      body = (pending.get(pid) ?? '') + resumed[1]!;
      pending.delete(pid);
    }
    const call = /^(\w+)\((.*)\) += (.*)$/.exec(body);
    if (call === null) continue;
    calls.push({ pid, name: call[1]!, args: call[2]!, result: call[3]!, line: `${pid} ${body}` });
  }
  return calls;
}

/** The `$0` the oracle's driver gives command `n`'s `bash -c`, which marks where its processes start in the trace. */
export function marker(n: number): string {
  return `oracle-${n}`;
}

const MARKER = /^"\/bin\/bash", \["\/bin\/bash", "-c", (?:"(?:[^"\\]|\\.)*"(?:\.\.\.)?), "oracle-(\d+)"\]/;
const CHILD = /^(\d+)(?: \/\* (\d+) in strace's PID NS \*\/)?/;

/**
 * The calls of each command's own processes, by the command's index: a command's processes are the `bash -c` its
 * driver started with {@link marker} (from its successful `execve` on) and every process it forked, found through
 * the pids `clone`, `fork` and `vfork` return (strace's `--pidns-translation` gives them in strace's own pid
 * namespace). The harness (strace, bwrap, the driver, timeout) is no command's.
 */
export function callsByCommand(calls: readonly Syscall[]): Map<number, Syscall[]> {
  // Two passes: a vfork'd child (posix_spawn) runs, and may execve, before its parent's clone returns its pid.
  const parent = new Map<number, number>();
  const roots = new Map<number, { readonly n: number; readonly at: number }>();
  const out = new Map<number, Syscall[]>();
  calls.forEach((call, at) => {
    if (FORKS.has(call.name)) {
      const child = CHILD.exec(call.result);
      if (child !== null) parent.set(Number(child[2] ?? child[1]), call.pid);
      return;
    }
    const mark = call.name === 'execve' && call.result === '0' ? MARKER.exec(call.args) : null;
    if (mark !== null) {
      roots.set(call.pid, { n: Number(mark[1]), at });
      out.set(Number(mark[1]), []);
    }
  });
  calls.forEach((call, at) => {
    if (FORKS.has(call.name)) return;
    let pid: number | undefined = call.pid;
    for (let depth = 0; pid !== undefined && !roots.has(pid) && depth < 10_000; depth++) pid = parent.get(pid);
    const root = pid === undefined ? undefined : roots.get(pid);
    if (root === undefined || (pid === call.pid && at <= root.at)) return;
    out.get(root.n)!.push(call);
  });
  return out;
}

const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork']);
const EXECS = new Set(['execve', 'execveat']);
const NETWORK = new Set(['connect', 'bind', 'sendto', 'sendmsg']);
const SYSTEM = new Set(['mount', 'umount2', 'pivot_root', 'chroot', 'swapon', 'swapoff', 'settimeofday', 'clock_settime', 'adjtimex', 'clock_adjtime', 'sethostname', 'setdomainname']);

/** The kind of a call a read-only command must not make, or undefined when it is harmless (a read, an allowance). */
export function violationKind(call: Syscall, programs: ReadonlySet<string>): ViolationKind | undefined {
  if (ALLOWANCES.some((a) => a.allows(call))) return undefined;
  if (EXECS.has(call.name)) {
    const path = firstPath(call.args) ?? '';
    return programs.has(basename(path)) ? undefined : 'exec';
  }
  if (NETWORK.has(call.name)) {
    // sendto/sendmsg on a connected socket carry no address: the connect was judged already.
    if ((call.name === 'sendto' || call.name === 'sendmsg') && !/sa_family=/.test(call.args)) return undefined;
    return 'network';
  }
  // adjtimex(2) and clock_adjtime(2) with modes 0 only read the clock's state.
  if ((call.name === 'adjtimex' || call.name === 'clock_adjtime') && /\bmodes=0\b/.test(call.args)) return undefined;
  if (SYSTEM.has(call.name)) return 'system';
  if (call.name === 'open' || call.name === 'openat' || call.name === 'openat2') return WRITE_FLAGS.test(call.args) ? 'write' : undefined;
  return 'write';
}

/** Every call of `calls` that a read-only command naming `programs` must not make. */
export function violations(calls: readonly Syscall[], programs: ReadonlySet<string>): Violation[] {
  const out: Violation[] = [];
  for (const call of calls) {
    const kind = violationKind(call, programs);
    if (kind !== undefined) out.push({ kind, syscall: call.line });
  }
  return out;
}

/** The programs a command may execute: every program any view of the analysis names, and their helpers. */
export function allowedPrograms(named: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const name of named) {
    out.add(basename(name));
    for (const helper of HELPERS.get(basename(name))?.runs ?? []) out.add(helper);
  }
  return out;
}
