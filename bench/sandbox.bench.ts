/**
 * Latency of `execute('true')` per sandbox backend (median of many sequential calls), and Docker container start
 * measured apart. Docker needs AGENTTOOLKIT_DOCKER_HOST / AGENTTOOLKIT_DOCKER_IMAGE (scripts/test-engine.sh start);
 * a backend whose engine is absent is skipped with a note.
 */
import { spawnSync } from 'node:child_process';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox, type Sandbox } from '../lib/sandbox';
import { DockerSandbox } from '../lib/sandbox/docker';
import { formatNs, measureOnce, printTable } from './harness';

const QUICK = process.env.BENCH_QUICK === '1';

async function executeLatency(sandbox: Sandbox, runs: number): Promise<number> {
  for (let i = 0; i < 5; i++) await sandbox.execute('true');
  return measureOnce(() => sandbox.execute('true'), runs);
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
  row("UnsafeLocalSandbox execute('true')", await executeLatency(local, localRuns), localRuns, '< 10 ms');

  if (spawnSync('bwrap', ['--version']).status === 0) {
    const runs = QUICK ? 20 : 100;
    await using bwrap = new BubblewrapSandbox(policy);
    row("BubblewrapSandbox execute('true')", await executeLatency(bwrap, runs), runs, '< 20 ms');
  } else {
    notes.push('BubblewrapSandbox skipped: bwrap not found (apt-get install bubblewrap).');
  }

  const host = process.env.AGENTTOOLKIT_DOCKER_HOST;
  const image = process.env.AGENTTOOLKIT_DOCKER_IMAGE;
  if (host && image) {
    const runs = QUICK ? 10 : 50;
    await using docker = new DockerSandbox(image, policy, { connection: host });
    await docker.start();
    row("DockerSandbox execute('true') (running container)", await executeLatency(docker, runs), runs, '< 80 ms');
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
  } else {
    notes.push('DockerSandbox skipped: set AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE (eval "$(scripts/test-engine.sh start)").');
  }

  printTable('Sandbox: latency of one command', ['operation', 'median', 'runs', 'target'], rows);
  for (const note of notes) console.log(`\n> ${note}`);
}
