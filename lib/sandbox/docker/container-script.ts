import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { RUN_TAG_VARIABLE } from '../process-tree';

/**
 * A shell function `sweep MODE VALUE` that kills processes inside the container, from inside it (POSIX `sh`; the
 * `tag` mode also needs `tr` and `grep`):
 *
 * - `tag VAR=VALUE`: every process whose environment holds exactly that entry (one call's processes).
 * - `all KEEP`: every process but pid 1, the keep-alive process `KEEP` and its children (used when no other call
 *   runs, so that a process that cleared its environment cannot hide). It first stops every process it may signal
 *   (`kill -STOP -1`, which the kernel applies to all of them at once and which a process with a pending stop cannot
 *   fork past), so a process that keeps forking copies of itself and exiting (pid hopping) holds still; then it
 *   kills, and finally continues the survivors (the keep-alive).
 *
 * The shell running it and its own children are spared. It repeats until a round finds no matching process at all
 * (a forking process can add children between rounds) and returns 0 when the container is clean; any other status
 * (a missing tool, a failed fork at the pids limit, a process that keeps coming back) means the sweep failed.
 * At most 20 rounds may find a process not seen before. A SIGKILLed process stays in `/proc`, not yet a zombie, until
 * the kernel has run its exit (freeing a large memory takes hundreds of rounds, and so does waiting for a CPU on a
 * busy host): a round that finds only processes it already killed waits 20 ms instead (with `sleep`; without a
 * `sleep` that takes fractions it does not wait), 150 times at most, and does not count as one of the 20.
 */
const SWEEP_FUNCTION = `sweep_rounds() {
  round=0; waits=0; killed=' '; nap=1
  while [ "$round" -lt 20 ]; do
    found=0; dying=0; failed=0
    for d in /proc/[0-9]*; do
      p=\${d#/proc/}
      case $p in 1|"$self"|"$arg") continue;; esac
      read -r stat <"$d/stat" 2>/dev/null || continue
      rest=\${stat##*) }
      case $rest in Z*|X*) continue;; esac
      ppid=\${rest#* }; ppid=\${ppid%% *}
      [ "$ppid" = "$self" ] && continue
      if [ "$mode" = tag ]; then
        tr '\\0' '\\n' <"$d/environ" 2>/dev/null | grep -qxF "$arg"
        case $? in 0) ;; 1) continue;; *) failed=1; continue;; esac
      else
        [ "$ppid" = "$arg" ] && continue
      fi
      # A match counts even when the kill misses: a process that forks and exits is gone by the kill, and its
      # child is only seen by the next round.
      case $killed in *" $p "*) dying=1;; *) found=1; killed="$killed$p ";; esac
      kill -9 "$p" 2>/dev/null
    done
    if [ "$found" = 1 ] || [ "$failed" = 1 ]; then
      round=$((round + 1))
    elif [ "$dying" = 1 ]; then
      waits=$((waits + 1)); [ "$waits" -gt 150 ] && return 3
      [ "$nap" = 1 ] && { sleep 0.02 2>/dev/null || nap=0; }
    else
      return 0
    fi
  done
  return 3
}
sweep() {
  mode=$1; arg=$2; self=$$
  if [ "$mode" = tag ]; then
    command -v tr >/dev/null 2>&1 && command -v grep >/dev/null 2>&1 || return 4
    sweep_rounds
    return
  fi
  kill -STOP -1 2>/dev/null
  sweep_rounds
  status=$?
  kill -CONT -1 2>/dev/null
  return "$status"
}
`;

/** Runs {@link SWEEP_FUNCTION} with the script's two arguments; its status is the sweep's. */
export const SWEEP_SCRIPT = `${SWEEP_FUNCTION}sweep "$1" "$2"`;

/**
 * Wraps one call's command (`sh -c WRAPPER sh COMMAND MODE SHELL HOSTNAME_MODE`): drops the `HOSTNAME` the engine adds
 * to every exec (unless the fourth argument is `keep-hostname`: the host passed one), runs the command with `SHELL -c`
 * (`/bin/sh` or the image's bash), then (unless MODE is `keep`) sweeps the processes carrying the call's tag before
 * exiting with the command's status. It assigns no variable before the command runs, so none of the call's variables
 * is changed. It runs in the call's environment, so it resets `PATH` and the loader's variables for the sweep's own
 * tools; the host's sweep, which decides, runs with the image's environment only. Without this, a background process
 * holding the exec's output would keep the exec open after the command exited. The sweep from the host follows
 * anyway: a command can kill this wrapper.
 */
export const CALL_WRAPPER_SCRIPT = `${SWEEP_FUNCTION}[ "$4" = keep-hostname ] || unset -v HOSTNAME
"$3" -c "$1"
status=$?
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
unset LD_PRELOAD LD_AUDIT LD_LIBRARY_PATH
[ "$2" = keep ] || sweep tag "${RUN_TAG_VARIABLE}=$${RUN_TAG_VARIABLE}" >/dev/null 2>&1
exit "$status"`;

/**
 * Where images keep GNU bash, tried in this order: `/bin/bash` (Debian, Ubuntu and Alpine's `bash` package; the
 * Filesystem Hierarchy Standard 3.0, section 3.4, puts shells in `/bin`), `/usr/bin/bash` (Fedora, Arch and other
 * merged-`/usr` systems), `/usr/local/bin/bash` (the Docker Official Image `bash`, built from source into `/usr/local`).
 */
export const BASH_CANDIDATES: readonly string[] = Object.freeze(['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash']);

/**
 * Prints the first of its arguments that runs as GNU bash, and exits 0; exits 1 when none does. A program only named
 * bash (busybox's applet links, a shell script) fails the test: `BASH_VERSINFO` is an array only bash sets, and the
 * other shells reject its syntax.
 */
export const BASH_PROBE_SCRIPT = `for p in "$@"; do
  if [ -f "$p" ] && [ -x "$p" ] && "$p" -c '[ -n "\${BASH_VERSINFO[0]}" ]' </dev/null >/dev/null 2>&1; then echo "$p"; exit 0; fi
done; exit 1`;

/** Prints the pids of pid 1's children: right after the container starts, only its keep-alive process. */
export const CHILDREN_OF_INIT_SCRIPT = `for d in /proc/[0-9]*; do
  read -r stat <"$d/stat" 2>/dev/null || continue
  rest=\${stat##*) }; ppid=\${rest#* }; ppid=\${ppid%% *}
  [ "$ppid" = 1 ] && echo "\${d#/proc/}"
done; exit 0`;

/** How long a helper script may run before it counts as failed, in ms. */
const SCRIPT_TIMEOUT_MS = 10_000;

/**
 * Runs one of this module's scripts through an exec as `user`, with no environment of the call (so the script's
 * own processes carry no call's tag), and returns its status and output; `null` status when it could not run or did
 * not finish in time.
 */
export async function runContainerScript(docker: Docker, container: Docker.Container, user: string | undefined, script: string, args: readonly string[]): Promise<{ exitCode: number | null; stdout: string }> {
  try {
    const exec = await container.exec({
      Cmd: ['/bin/sh', '-c', script, 'agenttoolkit', ...args],
      AttachStdout: true,
      AttachStderr: true,
      ...(user === undefined ? {} : { User: user }),
    });
    const stream = (await exec.start({ hijack: true, stdin: false })) as NodeJS.ReadableStream & { destroy(): void };
    let stdout = '';
    const sink = (keep: boolean): Writable =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (keep && stdout.length < 65_536) stdout += chunk.toString('utf8');
          done();
        },
      });
    docker.modem.demuxStream(stream, sink(true), sink(false));
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      new Promise<boolean>((resolve) => {
        stream.once('end', () => resolve(true));
        stream.once('close', () => resolve(true));
        stream.once('error', () => resolve(false));
      }),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), SCRIPT_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    stream.destroy();
    if (!ended) return { exitCode: null, stdout };
    for (let attempt = 0; attempt < 50; attempt++) {
      const info = await exec.inspect();
      if (!info.Running) return { exitCode: info.ExitCode, stdout };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { exitCode: null, stdout };
  } catch {
    return { exitCode: null, stdout: '' };
  }
}
