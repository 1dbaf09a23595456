// The backends the file tools' behaviour suites run against, unchanged. Each backend builds a workspace over a
// fresh folder; `hostPath` is set when the test process can also reach the files directly (links, outside edits).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_STATE, ToolContext, Tools, type ActionResult, type AgentState } from '../../../lib';
import type { Workspace } from '../../../lib/workspace';
import { LocalWorkspace } from '../../../lib/workspace';
import { fileTools, GrepTool, ripgrepMount, type FileTools, type GrepToolOptions } from '../../../lib/builtins';
import { BubblewrapSandbox, SandboxPolicy } from '../../../lib/sandbox';
import { DockerSandbox, DockerWorkspace } from '../../../lib/sandbox/docker';
import { isCI } from '../../../scripts/ci-flag';
import { bwrapMissing, dockerEngine } from '../../sandbox/helpers';

/** One backend's fresh workspace. */
export interface Made {
  readonly workspace: Workspace;
  /** The folder's path on the host, when the test can reach it directly. */
  readonly hostPath: string | undefined;
  /** Options that make the Grep tool run on this backend (a sandbox). */
  readonly grep?: Partial<GrepToolOptions>;
  /** Runs `sh -c script` in the workspace root where the files are (host or container), as a user of the backend would; resolves to its output. */
  shell(script: string): Promise<string>;
  dispose(): void | Promise<void>;
}

export interface Backend {
  readonly name: string;
  /** A workspace over a new empty folder. */
  make(): Made;
}

const hostShell = (root: string) => async (script: string): Promise<string> => {
  execFileSync('mkdir', ['-p', '--', root]);
  return execFileSync('/bin/sh', ['-c', script], { cwd: root, encoding: 'utf8' });
};

export const BACKENDS: readonly Backend[] = [
  {
    name: 'LocalWorkspace',
    make() {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-files-')));
      const root = join(dir, 'project');
      return { workspace: new LocalWorkspace(root), hostPath: root, shell: hostShell(root), dispose: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...dockerBackends(),
];

/**
 * The backends the Grep suites run on: those of the file tools, and bubblewrap (a LocalWorkspace whose Grep runs
 * ripgrep inside a BubblewrapSandbox, the binary bound in by ripgrepMount). Without bwrap the bubblewrap backend is
 * left out, except in CI, where its tests fail.
 */
export const GREP_BACKENDS: readonly Backend[] = [...BACKENDS, ...bubblewrapBackends()];

function bubblewrapBackends(): Backend[] {
  const missing = bwrapMissing();
  if (missing !== undefined) {
    if (!isCI()) return [];
    return [{ name: 'BubblewrapSandbox', make: () => { throw new Error(missing); } }];
  }
  return [{
    name: 'BubblewrapSandbox',
    make() {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-bwrap-')));
      const root = join(dir, 'project');
      const sandbox = new BubblewrapSandbox(new SandboxPolicy({ workingDirectory: dir, readablePaths: [dir] }), { mounts: [ripgrepMount()] });
      return {
        workspace: new LocalWorkspace(root), hostPath: root, grep: { sandbox }, shell: hostShell(root),
        dispose: async () => {
          await sandbox.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  }];
}

/**
 * DockerWorkspace over a DockerSandbox's container, one container per spec file, a fresh folder per test. The
 * folder is bound from the host, but the test is given no `hostPath`: every byte goes through the engine's API, as
 * with a remote engine. Without an engine the backend is left out, except in CI, where its tests fail.
 */
function dockerBackends(): Backend[] {
  const engine = dockerEngine();
  if (engine === undefined) {
    if (!isCI()) return [];
    return [{ name: 'DockerWorkspace', make: () => { throw new Error('DockerWorkspace needs AGENTTOOLKIT_DOCKER_HOST and AGENTTOOLKIT_DOCKER_IMAGE (required in CI).'); } }];
  }
  let shared: { sandbox: DockerSandbox; dir: string } | undefined;
  let count = 0;
  afterAll(async () => {
    await shared?.sandbox.close();
    if (shared) rmSync(shared.dir, { recursive: true, force: true });
  });
  return [{
    name: 'DockerWorkspace',
    make() {
      if (shared === undefined) {
        const dir = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-docker-')));
        // ripgrep bound in: the sandbox's root is read-only and its /tmp does not allow execution, so no copy could run.
        shared = { dir, sandbox: new DockerSandbox(engine.image, new SandboxPolicy({ workingDirectory: dir, writablePaths: [dir] }), { connection: engine.host, mounts: [ripgrepMount()] }) };
      }
      const root = `/workspace/t${++count}/project`;
      const workspace = new DockerWorkspace(shared.sandbox, { connection: engine.host, root });
      const shell = async (script: string): Promise<string> => {
        const run = await workspace.execArgv(['/bin/sh', '-c', script]);
        if (run.exitCode !== 0) throw new Error(`script failed (${String(run.exitCode)}): ${run.stderr}`);
        return run.stdout.toString('utf8');
      };
      return { workspace, hostPath: undefined, shell, dispose: () => undefined };
    },
  }];
}

export interface Harness {
  readonly workspace: Workspace;
  readonly hostPath: string | undefined;
  /** Runs `sh -c script` in the root where the files are; resolves to its output. */
  shell(script: string): Promise<string>;
  readonly tools: Tools;
  readonly files: FileTools;
  readonly state: AgentState;
  run(name: string, args: Record<string, unknown>): Promise<ActionResult>;
  /** The text of a successful call (fails the test with the error otherwise). */
  text(name: string, args: Record<string, unknown>): Promise<string>;
  /** The error of a failed call (fails the test when the call succeeded). */
  error(name: string, args: Record<string, unknown>): Promise<string>;
  dispose(): void | Promise<void>;
}

/** The file tools over a fresh workspace of `backend`; Grep runs the backend's way, with `grep` options on top. */
export function harness(backend: Backend, grep: Partial<GrepToolOptions> = {}): Harness {
  const { workspace, hostPath, dispose, shell, grep: backendGrep } = backend.make();
  const files: FileTools = { ...fileTools({ workspace }), grep: new GrepTool({ workspace, ...backendGrep, ...grep }) };
  const state: AgentState = {};
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, state) }).register(files.read, files.write, files.edit, files.glob, files.grep);
  const run = (name: string, args: Record<string, unknown>) => tools.execute(name, args);
  return {
    workspace, hostPath, shell, tools, files, state, run, dispose,
    async text(name, args) {
      const result = await run(name, args);
      if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
      return result.result as string;
    },
    async error(name, args) {
      const result = await run(name, args);
      if (result.ok) throw new Error(`expected failure, got: ${String(result.result)}`);
      return result.error!;
    },
  };
}
