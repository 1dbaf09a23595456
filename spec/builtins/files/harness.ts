// The backends the file tools' behaviour suites run against, unchanged. Each backend builds a workspace over a
// fresh folder; `hostPath` is set when the test process can also reach the files directly (links, outside edits).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_STATE, ToolContext, Tools, type ActionResult, type AgentState } from '../../../lib';
import type { Workspace } from '../../../lib/workspace';
import { LocalWorkspace } from '../../../lib/workspace';
import { fileTools, type FileTools } from '../../../lib/builtins';
import { SandboxPolicy } from '../../../lib/sandbox';
import { DockerSandbox, DockerWorkspace } from '../../../lib/sandbox/docker';
import { isCI } from '../../../scripts/ci-flag';
import { dockerEngine } from '../../sandbox/helpers';

export interface Backend {
  readonly name: string;
  /** A workspace over a new empty folder, and that folder's path on the host when the test can reach it. */
  make(): { workspace: Workspace; hostPath: string | undefined; dispose(): void | Promise<void> };
}

export const BACKENDS: readonly Backend[] = [
  {
    name: 'LocalWorkspace',
    make() {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'builtins-files-')));
      const root = join(dir, 'project');
      return { workspace: new LocalWorkspace(root), hostPath: root, dispose: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...dockerBackends(),
];

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
        shared = { dir, sandbox: new DockerSandbox(engine.image, new SandboxPolicy({ workingDirectory: dir, writablePaths: [dir] }), { connection: engine.host }) };
      }
      const root = `/workspace/t${++count}/project`;
      return { workspace: new DockerWorkspace(shared.sandbox, { connection: engine.host, root }), hostPath: undefined, dispose: () => undefined };
    },
  }];
}

export interface Harness {
  readonly workspace: Workspace;
  readonly hostPath: string | undefined;
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

export function harness(backend: Backend): Harness {
  const { workspace, hostPath, dispose } = backend.make();
  const files = fileTools({ workspace });
  const state: AgentState = {};
  const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, state) }).register(files.read, files.write, files.edit, files.glob);
  const run = (name: string, args: Record<string, unknown>) => tools.execute(name, args);
  return {
    workspace, hostPath, tools, files, state, run, dispose,
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
