/**
 * The read-only oracle by execution: every command the analysis claims read-only (`isReadOnlyCommand`, or a
 * `checkShellCommand` ALLOW of type `read_only` in DEFAULT mode) runs for real, `bash -c` in a fresh copy of a small
 * fixture folder, under `strace -f`, with the Bash tool's environment (`BASH_ENVIRONMENT` over the isolated base
 * environment), and every system call its processes make is judged (oracle-trace.ts): a write, a run program the
 * analysis did not name, a connect or a change to the system is a false claim. Each run is wrapped in bwrap (no
 * network, every capability dropped, everything read-only but the folder copy and a private /tmp), so a false claim
 * changes nothing on the machine: the oracle runs as root in CI, where `date -s` would set the clock. Used by
 * read-only-oracle.spec.ts and scripts/read-only-oracle.sh.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeCommand, BASH_ENVIRONMENT, checkShellCommand, isReadOnlyCommand, type ShellAnalysis } from '../../../lib/builtins';
import { READ_ONLY_VERDICT } from '../../../lib/builtins/shell/read-only-verdict';
import { PermissionContext, PermissionMode } from '../../../lib/permissions';
import { ISOLATED_BASE_ENVIRONMENT } from '../../../lib/sandbox/base-environment';
import { candidates, sample } from './oracle-commands';
import { allowedPrograms, callsByCommand, parseTrace, TRACED_SYSCALLS, violations, type Violation } from './oracle-trace';

/** A command the verdict claims read-only, with the programs the analysis names for it. */
export interface Claim {
  readonly command: string;
  readonly programs: ReadonlySet<string>;
}

/** A read-only claim the run disproved: the command and what it did. */
export interface FalseClaim {
  readonly command: string;
  readonly violations: readonly Violation[];
}

/** What one oracle run found. */
export interface OracleResult {
  /** Commands run. */
  readonly commands: number;
  readonly falseClaims: readonly FalseClaim[];
  /** Commands whose trace showed no bash at all (the harness failed): each is a failure of the oracle itself. */
  readonly notRun: readonly string[];
  /** Wall-clock time of the runs, in milliseconds. */
  readonly elapsedMs: number;
  /** CPU time (user and system) of every process the runs started, in milliseconds: the cost without the machine's load. */
  readonly cpuMs: number;
  readonly workers: number;
}

/** Options of {@link oracle}. */
export interface OracleOptions {
  /** Parallel runs; default the machine's available parallelism. */
  readonly workers?: number;
  /** A file to append each batch's count and false claims to as the run goes (a long run's partial result). */
  readonly progressFile?: string;
  /** Seconds a command may run before timeout(1) kills it; default 2 (`tail -f` runs until then). */
  readonly timeoutSeconds?: number;
  /**
   * Test-only: the read-only verdict to check instead of the analysis's, the key the Bash tool takes
   * ({@link READ_ONLY_VERDICT}), so a spec can inject claims known to be false and see the oracle catch them.
   */
  readonly [READ_ONLY_VERDICT]?: (analysis: ShellAnalysis) => boolean;
}

/** An absolute path of `program` on the host, or undefined. */
function which(program: string): string | undefined {
  const found = spawnSync('/bin/sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
  return found.startsWith('/') ? found : undefined;
}

/** Why the oracle cannot run here (strace, bwrap or timeout missing or not working), or undefined. */
export function oracleMissing(): string | undefined {
  for (const program of ['strace', 'bwrap', 'timeout', 'git']) {
    if (which(program) === undefined) return `${program} is not installed; install it with 'apt-get install -y strace bubblewrap coreutils git'.`;
  }
  const probe = inProbeFolder((folder) => spawnSync(which('strace')!, ['-f', '-qq', '-e', 'trace=execve', '-o', '/dev/null', which('bwrap')!, ...sandboxArgs(folder, folder), '/bin/true'], { stdio: 'ignore' }));
  return probe.status === 0 ? undefined : `strace over bwrap does not work here (${probe.error?.message ?? `exit ${String(probe.status)}`}).`;
}

/** Runs `probe` with an empty throwaway folder to sandbox. */
function inProbeFolder<T>(probe: (folder: string) => T): T {
  const folder = mkdtempSync(join(tmpdir(), 'read-only-oracle-probe-'));
  try {
    return probe(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The text of big.txt: enough lines that `sort -S 1` spills to temporary files. */
const BIG = Array.from({ length: 3_000 }, (_, k) => `line ${(k * 7919) % 3_000} hello`).join('\n');

/**
 * The fixture folder: text files, `.env`, a subfolder, links to a file, a folder and nothing, files that `X version`
 * would run (`version.js`, a Makefile target), and a git repository with two commits, a tag, a remote and a
 * repository alias.
 */
export function fixture(folder: string): void {
  mkdirSync(join(folder, 'sub'), { recursive: true });
  writeFileSync(join(folder, 'data.txt'), 'b\na\nhello world\na\n');
  writeFileSync(join(folder, 'notes.md'), 'a\nb\nhello\n');
  writeFileSync(join(folder, 'big.txt'), `${BIG}\n`);
  writeFileSync(join(folder, '.env'), 'TOKEN=secret\n');
  writeFileSync(join(folder, 'sub', 'inner.txt'), 'hello inner\n');
  writeFileSync(join(folder, 'version'), 'v1\n');
  writeFileSync(join(folder, 'version.js'), "require('fs').writeFileSync('ran-version', '')\n");
  writeFileSync(join(folder, 'Makefile'), 'version:\n\ttouch made-version\n');
  symlinkSync('data.txt', join(folder, 'link'));
  symlinkSync('sub', join(folder, 'sublink'));
  symlinkSync('missing', join(folder, 'dangling'));
  const git = (...args: string[]) => {
    const run = spawnSync('git', args, { cwd: folder, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' } });
    if (run.status !== 0) throw new Error(`read-only oracle: git ${args.join(' ')} failed in the fixture: ${run.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Oracle');
  git('config', 'user.email', 'oracle@example.com');
  git('config', 'alias.sync', '!touch synced');
  git('remote', 'add', 'origin', 'http://127.0.0.1:9/r.git');
  git('add', 'data.txt', 'notes.md', 'sub', 'link');
  git('commit', '-q', '-m', 'first');
  git('tag', 'v0');
  writeFileSync(join(folder, 'data.txt'), 'b\na\nhello world\na\nhello again\n');
  git('commit', '-q', '-am', 'second');
  writeFileSync(join(folder, 'notes.md'), 'a\nb\nhello\nchanged\n');
}

/**
 * bwrap's arguments around one run: a user namespace (as root, dropping capabilities alone is not enough: a uid-0
 * process regains its bounding set's capabilities at its next execve, and without a user namespace that set is
 * full, so `date -s` would set the host's clock), every other namespace too (no network; a pid namespace, so no host process can be signalled), every capability dropped, the whole file system
 * read-only with a fresh /dev, a read-only /proc (its sysctl files are writable by uid 0 without capabilities), a
 * private /tmp, `slot` (the driver and the commands) read-only and only `work` writable; the environment emptied,
 * then the Bash tool's.
 */
function sandboxArgs(slot: string, work: string): string[] {
  const env = { ...ISOLATED_BASE_ENVIRONMENT, ...BASH_ENVIRONMENT };
  return [
    '--die-with-parent', '--new-session', '--unshare-all', '--unshare-user', '--cap-drop', 'ALL',
    '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--remount-ro', '/proc', '--tmpfs', '/tmp', '--ro-bind', slot, slot, '--bind', work, work, '--chdir', work,
    '--clearenv', ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]), '--',
  ];
}

/**
 * Why the sandbox would let a command change the host (a capability in the bounding set of a process it starts,
 * which an execve as uid 0 turns into effective capabilities), or undefined when it holds none.
 */
export function capabilityLeak(bwrap: string): string | undefined {
  const probe = inProbeFolder((folder) => spawnSync(bwrap, [...sandboxArgs(folder, folder), '/bin/sh', '-c', 'grep -E "^Cap(Eff|Bnd)" /proc/self/status'], { encoding: 'utf8' }));
  const lines = probe.stdout.trim().split('\n');
  const clean = lines.length === 2 && lines.every((l) => /^Cap(Eff|Bnd):\s+0+$/.test(l));
  return clean ? undefined : `a process in the sandbox keeps capabilities (${lines.join('; ') || probe.stderr.trim()})`;
}

/** The programs every view of every simple command names: what the command may execute. */
export function namedPrograms(analysis: ShellAnalysis): Set<string> {
  const names: string[] = [];
  for (const c of analysis.commands) {
    if (c.program !== undefined) names.push(c.program);
    for (const view of c.views) if (view[0]?.literal) names.push(view[0].text);
  }
  return allowedPrograms(names);
}

/**
 * The commands the verdict claims read-only, in order: by default `isReadOnlyCommand`, or `checkShellCommand` in
 * DEFAULT mode allowing the command as `read_only` (in a folder laid out like the oracle's fixture).
 */
export async function claims(commands: readonly string[], verdict?: (analysis: ShellAnalysis) => boolean): Promise<Claim[]> {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'read-only-claims-')));
  try {
    fixture(folder);
    const context = new PermissionContext({ mode: PermissionMode.DEFAULT, cwd: folder, workingDirectories: [folder] });
    const judge = verdict ?? ((analysis: ShellAnalysis) => {
      if (isReadOnlyCommand(analysis)) return true;
      const decision = checkShellCommand(analysis, context);
      return decision.reason?.type === 'read_only';
    });
    const out: Claim[] = [];
    for (const command of new Set(commands)) {
      const analysis = await analyzeCommand(command);
      if (judge(analysis)) out.push({ command, programs: namedPrograms(analysis) });
    }
    return out;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Commands one strace and one sandbox run, one after another: amortizes their start (about 3 times a command's own cost). */
const BATCH = 24;

/** The standard input of every command. */
const INPUT = 'hello\nworld\nhello\n';

/** The driver of a batch: each command in turn, `bash -c COMMAND oracle-N`, under timeout(1), input from a file. */
function driver(commands: string, count: number, input: string, timeout: string, timeoutSeconds: number): string {
  return [
    `for ((n = 0; n < ${count}; n++)); do`,
    `  IFS= read -r -d '' command < ${JSON.stringify(commands)}/$n`,
    `  ${JSON.stringify(timeout)} -k 1 ${timeoutSeconds} /bin/bash -c "$command" "oracle-$n" < ${JSON.stringify(input)} >/dev/null 2>&1`,
    'done',
    '',
  ].join('\n');
}

interface Paths {
  readonly strace: string;
  readonly bwrap: string;
  readonly timeout: string;
  readonly root: string;
  readonly template: string;
}

/**
 * Runs one batch in a fresh copy of the fixture, under one strace: resolves to each command's violations (undefined
 * for a command whose bash never started).
 */
function runBatch(batch: readonly Claim[], slot: string, paths: Paths, timeoutSeconds: number): Promise<(Violation[] | undefined)[]> {
  const work = join(slot, 'work');
  const commands = join(slot, 'commands');
  rmSync(slot, { recursive: true, force: true });
  mkdirSync(commands, { recursive: true });
  cpSync(paths.template, work, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  batch.forEach((claim, n) => writeFileSync(join(commands, String(n)), claim.command));
  const script = join(slot, 'driver.bash');
  writeFileSync(join(slot, 'input'), INPUT);
  writeFileSync(script, driver(commands, batch.length, join(slot, 'input'), paths.timeout, timeoutSeconds));
  const traceFile = `${slot}.trace`;
  return new Promise((resolve) => {
    const child = spawn(paths.strace, [
      '-f', '-qq', '--seccomp-bpf', '--pidns-translation', '-e', 'signal=none', '-e', `trace=${TRACED_SYSCALLS.join(',')}`, '-o', traceFile,
      paths.bwrap, ...sandboxArgs(slot, work), '/bin/bash', script,
    ], { stdio: 'ignore' });
    const guard = setTimeout(() => child.kill('SIGKILL'), batch.length * (timeoutSeconds + 3) * 1_000);
    child.on('close', () => {
      clearTimeout(guard);
      let text = '';
      try {
        text = readFileSync(traceFile, 'utf8');
      } catch {
        text = '';
      }
      rmSync(traceFile, { force: true });
      const byCommand = callsByCommand(parseTrace(text));
      resolve(batch.map((claim, n) => {
        const calls = byCommand.get(n);
        return calls === undefined ? undefined : violations(calls, claim.programs);
      }));
    });
  });
}

/** Whether a violation changed what the next command in the batch sees: a write that succeeded. */
function changedFolder(violation: Violation): boolean {
  return violation.kind === 'write' && !/\) += -1 /.test(violation.syscall);
}

/**
 * Runs every claim and judges what it did. `workers` parallel runs take batches of claims from one queue; a batch
 * runs in a fresh copy of the fixture, and when a command in it changed something (a write that succeeded), the
 * commands after it run again in a batch of their own, so every command's folder is as fresh as if it had its own copy (a
 * command that only read leaves it as it was).
 */
export async function runClaims(claimed: readonly Claim[], options: OracleOptions = {}): Promise<OracleResult> {
  const strace = which('strace');
  const bwrap = which('bwrap');
  const timeout = which('timeout');
  if (strace === undefined || bwrap === undefined || timeout === undefined) throw new Error(`read-only oracle: ${oracleMissing() ?? 'strace, bwrap or timeout is missing'}`);
  const leak = capabilityLeak(bwrap);
  if (leak !== undefined) throw new Error(`read-only oracle: refusing to run commands: ${leak}`);
  const workers = Math.max(1, options.workers ?? availableParallelism());
  const timeoutSeconds = options.timeoutSeconds ?? 2;
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'read-only-oracle-')));
  const template = join(root, 'template');
  mkdirSync(template);
  fixture(template);
  const paths: Paths = { strace, bwrap, timeout, root, template };
  const falseClaims: FalseClaim[] = [];
  const notRun: string[] = [];
  const started = Date.now();
  const cpuStarted = childrenCpuMs();
  const queue: Claim[][] = [];
  for (let k = 0; k < claimed.length; k += BATCH) queue.push(claimed.slice(k, k + BATCH));
  let done = 0;
  const worker = async (n: number) => {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) {
      const results = await runBatch(batch, join(root, `w${n}`), paths, timeoutSeconds);
      done += batch.length;
      for (let k = 0; k < batch.length; k++) {
        const found = results[k];
        if (found === undefined) {
          notRun.push(batch[k]!.command);
          continue;
        }
        if (found.length === 0) continue;
        falseClaims.push({ command: batch[k]!.command, violations: found });
        if (options.progressFile !== undefined) appendFileSync(options.progressFile, `FALSE ${JSON.stringify(batch[k]!.command)} ${found[0]!.kind}: ${found[0]!.syscall}\n`);
        // A write that failed (outside the copy, read-only there) or a program run or connect left the copy as it
        // was: the run's writes are traced too.
        if (found.some(changedFolder) && k + 1 < batch.length) {
          queue.unshift(batch.slice(k + 1));
          break;
        }
      }
      if (options.progressFile !== undefined) appendFileSync(options.progressFile, `ran ${done} in ${Date.now() - started} ms\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, (_, n) => worker(n)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { commands: claimed.length, falseClaims, notRun, elapsedMs: Date.now() - started, cpuMs: childrenCpuMs() - cpuStarted, workers };
}

/** CPU time of this process's finished children and theirs (proc(5), /proc/self/stat `cutime` and `cstime`), in milliseconds. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of the line; the slice starts at field 3. Clock ticks are 100 per second on Linux (USER_HZ).
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** What {@link selectClaims} picked: the claims and how many candidates it judged. */
export interface Selection {
  readonly claims: readonly Claim[];
  readonly judged: number;
}

/**
 * About `count` claims from the generator (oracle-commands.ts): every claim among `extra` and the first tier (the
 * attacks and every option's spellings once), then claims sampled from the second tier up to `count`.
 */
export async function selectClaims(count: number, extra: readonly string[] = [], verdict?: (analysis: ShellAnalysis) => boolean): Promise<Selection> {
  const { first, more } = candidates();
  const chosen = await claims([...extra, ...first], verdict);
  let judged = extra.length + first.length;
  const need = count - chosen.length;
  const shuffled = need > 0 ? sample(more, more.length) : [];
  const seen = new Set(chosen.map((c) => c.command));
  for (let at = 0; chosen.length < count && at < shuffled.length;) {
    const picked = shuffled.slice(at, at + Math.max(1_000, 2 * (count - chosen.length)));
    at += picked.length;
    judged += picked.length;
    chosen.push(...(await claims(picked, verdict)).filter((c) => !seen.has(c.command)).slice(0, count - chosen.length));
  }
  return { claims: chosen, judged };
}

/** {@link claims} then {@link runClaims}: the commands `commands` holds that the verdict claims read-only, run and judged. */
export async function oracle(commands: readonly string[], options: OracleOptions = {}): Promise<OracleResult> {
  return runClaims(await claims(commands, options[READ_ONLY_VERDICT]), options);
}
