/**
 * `npm run bench -- bash`: the Bash tool's `true` round trip (`tools.execute('Bash', ...)`, the registry's whole
 * pipeline and the streaming bridge) against the bare `sandbox.execute('true')`, per backend; target at most 1.2x.
 * Bare and Bash calls alternate, so load on the machine weighs on both alike. Docker needs AGENTTOOLKIT_DOCKER_HOST /
 * AGENTTOOLKIT_DOCKER_IMAGE; a backend whose engine is absent is skipped with a note.
 */
import { spawnSync } from 'node:child_process';
import { Tools } from '../lib';
import { bashTool } from '../lib/builtins';
import { BubblewrapSandbox, SandboxPolicy, UnsafeLocalSandbox, type Sandbox } from '../lib/sandbox';
import { DockerSandbox } from '../lib/sandbox/docker';
import { formatNs, printTable } from './harness';

const QUICK = process.env.BENCH_QUICK === '1';
const failures: string[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function compare(name: string, sandbox: Sandbox, runs: number): Promise<string[]> {
  const tools = new Tools().register(bashTool({ sandbox }));
  for (let i = 0; i < 5; i++) {
    await sandbox.execute('true');
    await tools.execute('Bash', { command: 'true' });
  }
  const bare: number[] = [];
  const bash: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await sandbox.execute('true');
    bare.push(performance.now() - t);
    t = performance.now();
    const result = await tools.execute('Bash', { command: 'true' });
    bash.push(performance.now() - t);
    if (!result.ok) failures.push(`${name}: Bash true failed: ${String(result.error)}`);
  }
  const ratio = median(bash) / median(bare);
  return [name, formatNs(median(bare) * 1e6), formatNs(median(bash) * 1e6), `${ratio.toFixed(2)}x`, String(runs), '<= 1.2x'];
}

export default async function (): Promise<void> {
  const policy = SandboxPolicy.forWorkspace(process.cwd());
  const rows: string[][] = [];
  const notes: string[] = [];
  await using local = new UnsafeLocalSandbox(policy);
  rows.push(await compare('UnsafeLocalSandbox', local, QUICK ? 20 : 200));
  if (spawnSync('bwrap', ['--version']).status === 0) {
    await using bwrap = new BubblewrapSandbox(policy);
    rows.push(await compare('BubblewrapSandbox', bwrap, QUICK ? 20 : 100));
  } else {
    notes.push('BubblewrapSandbox skipped: bwrap not found.');
  }
  const host = process.env.AGENTTOOLKIT_DOCKER_HOST;
  const image = process.env.AGENTTOOLKIT_DOCKER_IMAGE;
  if (host && image) {
    await using docker = new DockerSandbox(image, policy, { connection: host });
    await docker.start();
    rows.push(await compare('DockerSandbox (running container)', docker, QUICK ? 10 : 50));
  } else {
    notes.push('DockerSandbox skipped: set AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE.');
  }
  printTable("Bash tool: `true` round trip against the bare sandbox", ['backend', 'bare execute', 'Bash', 'ratio', 'runs', 'target'], rows);
  for (const note of [...notes, ...failures]) console.log(`- ${note}`);
  if (failures.length > 0) process.exitCode = 1;
}
