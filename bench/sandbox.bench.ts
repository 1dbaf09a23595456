/**
 * Latency of `execute('true')` per sandbox backend (median of many sequential calls) under each shell (`posix`, the
 * bare sandbox's default, and `bash`) and with `readOnly` where the backend enforces it, and Docker container start
 * (and the read-only companion container's first call) measured apart. Docker needs AGENTTOOLKIT_DOCKER_HOST / AGENTTOOLKIT_DOCKER_IMAGE (scripts/test-engine.sh start);
 * a backend whose engine is absent is skipped with a note.
 */
import { spawnSync } from 'node:child_process';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox, type Sandbox, type SandboxExecuteOptions } from '../lib/sandbox';
import { DockerSandbox } from '../lib/sandbox/docker';
import { formatNs, measureOnce, printTable } from './harness';

const QUICK = process.env.BENCH_QUICK === '1';

async function executeLatency(sandbox: Sandbox, runs: number, options: SandboxExecuteOptions = {}): Promise<number> {
  for (let i = 0; i < 5; i++) await sandbox.execute('true', options);
  return measureOnce(() => sandbox.execute('true', options), runs);
}

/** The variants measured per backend: the bare default first, so the others read as a difference from it. */
const VARIANTS: readonly [string, SandboxExecuteOptions][] = [
  ['posix', {}],
  ['bash', { shell: 'bash' }],
  ['posix, readOnly', { readOnly: true }],
  ['bash, readOnly', { shell: 'bash', readOnly: true }],
];

async function variants(name: string, sandbox: Sandbox, runs: number, row: (name: string, ms: number, runs: number, target: string) => void, target: string): Promise<void> {
  const readOnly = (await sandbox.capabilities?.())?.readOnly ?? false;
  for (const [label, options] of VARIANTS) {
    if (options.readOnly === true && !readOnly) continue;
    row(`${name} execute('true') (${label})`, await executeLatency(sandbox, runs, options), runs, label === 'posix' ? target : 'vs posix');
  }
}

export default async function (): Promise<void> {
  const policy = SandboxPolicy.forWorkspace(process.cwd());
  const rows: string[][] = [];
  const notes: string[] = [];
  const row = (name: string, ms: number, runs: number, target: string): void => {
    rows.push([name, formatNs(ms * 1e6), String(runs), target]);
  };

  const localRuns = QUICK ? 20 : 200;
  await using local = new UnsafeLocalSandbox(policy);
  await variants('UnsafeLocalSandbox', local, localRuns, row, '< 10 ms');

  if (spawnSync('bwrap', ['--version']).status === 0) {
    const runs = QUICK ? 20 : 100;
    await using bwrap = new BubblewrapSandbox(policy);
    await variants('BubblewrapSandbox', bwrap, runs, row, '< 20 ms');
  } else {
    notes.push('BubblewrapSandbox skipped: bwrap not found (apt-get install bubblewrap).');
  }

  const host = process.env.AGENTTOOLKIT_DOCKER_HOST;
  const image = process.env.AGENTTOOLKIT_DOCKER_IMAGE;
  if (host && image) {
    const runs = QUICK ? 10 : 50;
    await using docker = new DockerSandbox(image, policy, { connection: host });
    await docker.start();
    await variants('DockerSandbox (running containers)', docker, runs, row, '< 80 ms');
    const startRuns = QUICK ? 3 : 7;
    const starts: number[] = [];
    for (let i = 0; i < startRuns; i++) {
      const fresh = new DockerSandbox(image, policy, { connection: host });
      const t = performance.now();
      await fresh.start();
      starts.push(performance.now() - t);
      await fresh.close();
    }
    starts.sort((a, b) => a - b);
    row('DockerSandbox start() (create + start container)', starts[Math.floor(starts.length / 2)]!, startRuns, 'measured apart');
    const firstReadOnly: number[] = [];
    for (let i = 0; i < startRuns; i++) {
      const fresh = new DockerSandbox(image, policy, { connection: host });
      await fresh.start();
      const t = performance.now();
      await fresh.execute('true', { readOnly: true });
      firstReadOnly.push(performance.now() - t);
      await fresh.close();
    }
    firstReadOnly.sort((a, b) => a - b);
    row("DockerSandbox first execute('true', { readOnly }) (makes the read-only container)", firstReadOnly[Math.floor(firstReadOnly.length / 2)]!, startRuns, 'measured apart');
  } else {
    notes.push('DockerSandbox skipped: set AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE (eval "$(scripts/test-engine.sh start)").');
  }

  printTable('Sandbox: latency of one command', ['operation', 'median', 'runs', 'target'], rows);
  for (const note of notes) console.log(`\n> ${note}`);
}
