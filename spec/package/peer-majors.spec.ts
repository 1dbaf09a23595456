/**
 * Every supported major of the optional peers dockerode and chokidar, loaded by the compiled library in a real Node
 * process (jest's CommonJS VM cannot run the `import()` that loads chokidar 5 and 6, which ship ES modules only).
 *
 * The library is compiled once; each case gets its own folder with a copy of it and a node_modules whose entries link
 * to the project's, except the peer, which links to one of its aliased dev dependencies (`dockerode-v5`,
 * `chokidar-v5`, `chokidar-v6`; the plain names are the oldest majors). A scenario script then drives the peer for
 * real: a DockerSandbox runs a command on the Docker engine, a watched skills registry picks up a new skill.
 * chokidar 6 needs Node 22.22 or later: its case runs on a Node 22 binary installed outside the project
 * (spec/support/node22.ts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCI } from '../../scripts/ci-flag';
import { dockerEngine } from '../sandbox/helpers';
import { node22 } from '../support/node22';
import { compiledLibrary } from '../support/packed-package';

const root = join(__dirname, '..', '..');
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'agenttoolkit-peers-'));
  // Compiled once per content of the sources and shared across Node majors (spec/support/packed-package.ts).
  cpSync(compiledLibrary(), join(work, 'dist'), { recursive: true });
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A folder with the compiled library whose `peer` resolves to the project's `node_modules/<alias>`. */
function project(peer: string, alias: string): string {
  const dir = join(work, alias);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(join(work, 'dist'), join(dir, 'dist'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === '.bin' || entry === peer) continue;
    symlinkSync(join(root, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  symlinkSync(join(root, 'node_modules', alias), join(dir, 'node_modules', peer));
  return dir;
}

/** Runs `script` (CommonJS) in `dir` with `node`; returns its standard output, or throws with its output. */
function run(node: string, dir: string, script: string, flags: string[] = []): string {
  writeFileSync(join(dir, 'scenario.js'), script);
  const result = spawnSync(node, [...flags, 'scenario.js'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`scenario failed (${String(result.status ?? result.signal)}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const version = (dir: string, peer: string): string =>
  (JSON.parse(readFileSync(join(dir, 'node_modules', peer, 'package.json'), 'utf8')) as { version: string }).version;

const watchScenario = `
const { mkdtempSync, mkdirSync, writeFileSync, realpathSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const { Skills } = require('./dist/skills');
const skill = (root, name) => {
  mkdirSync(join(root, name));
  writeFileSync(join(root, name, 'SKILL.md'), '---\\nname: ' + name + '\\ndescription: the ' + name + ' skill\\n---\\nBody.\\n');
};
(async () => {
  const root = mkdtempSync(join(tmpdir(), 'agenttoolkit-peer-skills-'));
  skill(root, 'first');
  const skills = await Skills.fromLocalDir(root);
  await skills.watch({ debounceMs: 20 });
  skill(root, 'second');
  const end = Date.now() + 20000;
  while (skills.get('second') === undefined) {
    if (Date.now() > end) throw new Error('the watcher did not report the new skill');
    await new Promise((r) => setTimeout(r, 20));
  }
  await skills.close();
  console.log(JSON.stringify({ seen: skills.get('second').description, watching: skills.watching }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('chokidar majors (real file watching, compiled library, real Node)', () => {
  const cases: Array<{ alias: string; major: string; node: () => { path: string } | { missing: string } }> = [
    { alias: 'chokidar', major: '4', node: () => ({ path: process.execPath }) },
    { alias: 'chokidar-v5', major: '5', node: () => ({ path: process.execPath }) },
    { alias: 'chokidar-v6', major: '6', node: () => node22([22, 22]) },
  ];
  it.each(cases)('watches skills with chokidar $major', ({ alias, major, node }) => {
    const binary = node();
    if ('missing' in binary) {
      if (isCI()) throw new Error(binary.missing);
      process.stderr.write(`\nSkipping chokidar ${major}: ${binary.missing}\n`);
      return;
    }
    const dir = project('chokidar', alias);
    expect(version(dir, 'chokidar').split('.')[0]).toBe(major);
    expect(realpathSync(join(dir, 'node_modules', 'chokidar'))).toBe(realpathSync(join(root, 'node_modules', alias)));
    // Without require(esm), so chokidar 5 and 6 load only through the library's import().
    expect(JSON.parse(run(binary.path, dir, watchScenario, ['--no-experimental-require-module']))).toEqual({ seen: 'the second skill', watching: false });
  }, 180_000);
});

const dockerScenario = `
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');
const { SandboxPolicy } = require('./dist/sandbox');
const { DockerSandbox } = require('./dist/sandbox/docker');
(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-peer-docker-'));
  const sandbox = new DockerSandbox(process.env.AGENTTOOLKIT_DOCKER_IMAGE, SandboxPolicy.forWorkspace(dir), { connection: process.env.AGENTTOOLKIT_DOCKER_HOST });
  try {
    const result = await sandbox.execute('echo "from $(uname -s)" && echo out > /tmp/peer.txt && cat /tmp/peer.txt');
    console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout, dockerode: require(require.resolve('dockerode/package.json', { paths: [join(__dirname, 'dist')] })).version }));
  } finally {
    await sandbox.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('dockerode majors (real Docker engine, compiled library, real Node)', () => {
  it.each([
    { alias: 'dockerode', major: '4' },
    { alias: 'dockerode-v5', major: '5' },
  ])('runs a DockerSandbox command with dockerode $major', ({ alias, major }) => {
    if (dockerEngine() === undefined) {
      if (isCI()) throw new Error('AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE are not set (required in CI)');
      process.stderr.write(`\nSkipping dockerode ${major}: no Docker engine configured\n`);
      return;
    }
    const dir = project('dockerode', alias);
    const out = JSON.parse(run(process.execPath, dir, dockerScenario)) as { exitCode: number; stdout: string; dockerode: string };
    expect(out).toEqual({ exitCode: 0, stdout: 'from Linux\nout\n', dockerode: expect.stringMatching(new RegExp(`^${major}\\.`)) });
  }, 180_000);
});
