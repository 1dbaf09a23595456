import type { OutputBudget } from '../../budget/output-budget';
import { deepFreeze } from '../../schema/deep-freeze';
import type { PermissionContext } from '../../permissions/permission-context';
import type { PermissionDecision } from '../../permissions/permission-decision';
import { ActionResult } from '../../result';
import type { Sandbox, SandboxCapabilities, SandboxExecuteOptions, SandboxOutputChunk, SandboxResult } from '../../sandbox/sandbox';
import { ToolChunk, ToolResultState } from '../../streaming/tool-chunk';
import { cutText } from '../../text/cut-text';
import type { ToolInvocation } from '../../tool/agent-state';
import { ToolBase } from '../../tool/tool-base';
import { ToolEffect } from '../../tool/tool-effect';
import { BuiltinToolError } from '../files/errors';
import { analyzeCommand, type ShellAnalysis, type ShellDialect } from './analyze-command';
import { BASH_ENVIRONMENT } from './bash-environment';
import { checkShellCommand, isReadOnlyCommand, type ShellCheckOptions } from './bash-check';
import { commandRule } from './command-rule';
import { READ_ONLY_VERDICT } from './read-only-verdict';

/** Default `timeout` of Bash, in ms. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Largest `timeout` of Bash, in ms. */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/**
 * The default output budget of Bash, in characters: longer output keeps its head and tail (see the `outputBudget`
 * option and docs/output-budgets.md).
 */
export const BASH_MAX_OUTPUT_CHARS = 30_000;
/** The most characters of the command quoted in a failure. */
const QUOTED_COMMAND_CHARS = 1_000;

/** Key of a streamed chunk's metadata that carries the live output (see {@link BashTool}). */
export const BASH_OUTPUT_METADATA_KEY = 'bashOutput';

/** The JSON Schema of the `Bash` tool's params: `command`, optional `timeout` (ms) and `description`. */
export const BashInput = deepFreeze({
  additionalProperties: false,
  type: 'object',
  required: ['command'],
  properties: {
    command: { minLength: 1, description: 'The shell command to run (bash when the sandbox has it, else POSIX sh).', type: 'string' },
    description: { description: 'What the command does, in a few words, for the user.', type: 'string' },
    timeout: {
      minimum: 1,
      maximum: BASH_MAX_TIMEOUT_MS,
      description: `Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, at most ${BASH_MAX_TIMEOUT_MS}).`,
      type: 'integer',
    },
  },
} as const);

/** The params of a Bash call, as {@link BashInput} describes them. */
export type BashParams = { command: string; description?: string; timeout?: number };

/** What a sandbox without `capabilities()` offers: the port's minimum. */
const MINIMUM: SandboxCapabilities = Object.freeze({ shells: Object.freeze(['posix'] as const), readOnly: false });

/** Options of {@link BashTool}. */
export interface BashToolOptions extends ShellCheckOptions {
  /** Where commands run: any `Sandbox` (UnsafeLocalSandbox, BubblewrapSandbox, DockerSandbox or your own). */
  readonly sandbox: Sandbox;
  /** The tool's name (default `Bash`); command rules are written `<name>(...)`. */
  readonly name?: string;
  /**
   * The limit on the text the model reads (default `{ maxChars: BASH_MAX_OUTPUT_CHARS }`): longer output keeps its
   * head and tail around a marker, and with a workspace (here or on the registry's `outputBudget`) the full output is
   * saved for the paging tool. Its fields override the registry's; `false` turns it off.
   */
  readonly outputBudget?: OutputBudget | false | undefined;
}

const DESCRIPTION =
  'Runs a shell command (bash when the sandbox has it, else POSIX sh) and returns its standard output, then its ' +
  'standard error. A non-zero exit status or a timeout fails the call. Pagers are off; git diff, show, blame and ' +
  'log -p run without asking only with --no-textconv (and git diff with --no-ext-diff).';

/** The description, with what happens to long output under the tool's own budget. */
function describe(budget: OutputBudget | false): string {
  if (budget === false) return DESCRIPTION;
  return budget.maxChars === undefined ? `${DESCRIPTION} Long output keeps its beginning and end.` : `${DESCRIPTION} Output longer than ${budget.maxChars} characters keeps its beginning and end.`;
}

/**
 * The built-in `Bash` tool over any {@link Sandbox}.
 *
 * Permissions: `checkPermissions` is `checkShellCommand` over the parsed command (a command that cannot be parsed
 * fails closed), and command rules (`Bash(git commit:*)`) are matched by `commandRule('command')`, so a compound
 * command is covered only when every part is. The tool declares no read-only shortcut of its own: read-only
 * commands are allowed by the same check.
 *
 * Running: the sandbox's `capabilities()` are asked once. Every command runs with `shell: 'bash'` when the sandbox
 * offers bash, and is analysed as bash; otherwise it runs in the sandbox's POSIX sh and is analysed for it (a
 * bash-only construct then asks). Every call sets {@link BASH_ENVIRONMENT} (pagers off, git's system and user
 * configuration off, git settings that would run programs overridden). A command the analysis judges read-only
 * ({@link isReadOnlyCommand}) runs with `readOnly: true` when the sandbox enforces it, so a wrong verdict can read
 * but not write or connect; on a sandbox that cannot (UnsafeLocalSandbox) the verdict stands alone.
 *
 * Streaming (`tools.stream`): while the command runs, each piece of output arrives as a `RUNNING` chunk without
 * content whose metadata `bashOutput` is `{ stream: 'stdout' | 'stderr', text }`; the last chunk carries the text
 * the model reads (stdout then stderr) with the final state; the output budget holds that text to its head and tail. A sandbox that does not stream yields only that
 * last chunk.
 *
 * @throws BuiltinToolError `INVALID_BUILTIN_OPTION` from the constructor when `sandbox` has no `execute` method.
 */
export class BashTool extends ToolBase<typeof BashInput> {
  readonly #sandbox: Sandbox;
  readonly #check: ShellCheckOptions;
  readonly #readOnlyVerdict: (analysis: ShellAnalysis) => boolean;
  #capabilities: Promise<SandboxCapabilities> | undefined;

  constructor(options: BashToolOptions) {
    if (typeof options?.sandbox?.execute !== 'function') {
      throw new BuiltinToolError('INVALID_BUILTIN_OPTION', 'bashTool: `sandbox` must be a Sandbox (an object with execute()).');
    }
    const outputBudget = options.outputBudget ?? { maxChars: BASH_MAX_OUTPUT_CHARS };
    // The rule hooks are made before `this` exists; they reach the tool's dialect through this holder.
    const holder: { tool?: BashTool } = {};
    super({
      name: options.name ?? 'Bash',
      description: describe(outputBudget),
      inputSchema: BashInput,
      effects: [ToolEffect.SPAWNS_PROCESS],
      isReadOnly: false,
      isConcurrencySafe: false,
      outputBudget,
      ...commandRule('command', { dialect: () => holder.tool!.#dialect() }),
    });
    holder.tool = this;
    this.#sandbox = options.sandbox;
    this.#check = { credentialPaths: options.credentialPaths, writeTool: options.writeTool };
    this.#readOnlyVerdict = (options as { [READ_ONLY_VERDICT]?: (analysis: ShellAnalysis) => boolean })[READ_ONLY_VERDICT] ?? isReadOnlyCommand;
  }

  override async checkPermissions(input: BashParams, context: PermissionContext): Promise<PermissionDecision> {
    return checkShellCommand(await analyzeCommand(input.command, { dialect: await this.#dialect() }), context, this.#check);
  }

  /** The sandbox's capabilities, asked once; a sandbox without the method, or whose answer failed, offers the minimum. */
  #offered(): Promise<SandboxCapabilities> {
    this.#capabilities ??= (async () => {
      try {
        return (await this.#sandbox.capabilities?.()) ?? MINIMUM;
      } catch {
        this.#capabilities = undefined;
        return MINIMUM;
      }
    })();
    return this.#capabilities;
  }

  async #dialect(): Promise<ShellDialect> {
    return (await this.#offered()).shells.includes('bash') ? 'bash' : 'posix';
  }

  /** The options the command runs with: the shell it was analysed for, the hardened environment, read-only enforcement. */
  async #runOptions(command: string): Promise<Pick<SandboxExecuteOptions, 'shell' | 'readOnly' | 'env'>> {
    const offered = await this.#offered();
    const bash = offered.shells.includes('bash');
    const readOnly = offered.readOnly && this.#readOnlyVerdict(await analyzeCommand(command, { dialect: bash ? 'bash' : 'posix' }));
    return { env: BASH_ENVIRONMENT, ...(bash ? { shell: 'bash' as const } : {}), ...(readOnly ? { readOnly: true } : {}) };
  }

  override async *call(input: BashParams, invocation: ToolInvocation): AsyncGenerator<ToolChunk, void, undefined> {
    const pending: SandboxOutputChunk[] = [];
    let wake: (() => void) | undefined;
    let settled: { result: SandboxResult } | { error: unknown } | undefined;
    void this.#runOptions(input.command)
      .then((run) => this.#sandbox.execute(input.command, {
        ...run,
        timeoutMs: input.timeout ?? BASH_DEFAULT_TIMEOUT_MS,
        signal: invocation.signal,
        onOutput: (chunk) => {
          pending.push(chunk);
          wake?.();
        },
      }))
      .then((result) => (settled = { result }), (error: unknown) => (settled = { error }))
      .finally(() => wake?.());
    for (;;) {
      while (pending.length > 0) {
        const chunk = pending.shift()!;
        yield new ToolChunk({ metadata: { [BASH_OUTPUT_METADATA_KEY]: chunk } });
      }
      if (settled !== undefined) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if ('error' in settled) {
      // Cancelled: the registry already records the call as interrupted and stopped reading; a throw here would
      // reject a read nobody awaits.
      if (invocation.signal.aborted) return;
      const message = settled.error instanceof Error ? settled.error.message : String(settled.error);
      yield finalChunk(ActionResult.fail(`Command could not run: ${quote(input.command)}\n${message}`), undefined);
      return;
    }
    yield finalChunk(outcome(input, settled.result), settled.result);
  }
}

/** The model-facing text of a finished command, as a result. */
function outcome(input: BashParams, result: SandboxResult): ActionResult {
  const output = modelOutput(result);
  if (result.timedOut) {
    return ActionResult.fail(`Command timed out after ${input.timeout ?? BASH_DEFAULT_TIMEOUT_MS} ms: ${quote(input.command)}${output === '' ? '' : `\n${output}`}`);
  }
  if (result.exitCode !== 0) {
    return ActionResult.fail(`Command failed with exit code ${String(result.exitCode)}: ${quote(input.command)}${output === '' ? '' : `\n${output}`}`);
  }
  return ActionResult.success(output === '' ? '(no output)' : output);
}

/** stdout then stderr, each without its trailing newlines (the registry applies the output budget). */
function modelOutput(result: SandboxResult): string {
  const parts = [result.stdout, result.stderr].map((text) => text.replace(/\n+$/, '')).filter((text) => text !== '');
  let text = parts.join('\n');
  if (result.truncated) text += `${text === '' ? '' : '\n'}[output past the sandbox's output limit was dropped]`;
  return text;
}

function quote(command: string): string {
  return cutText(command, QUOTED_COMMAND_CHARS);
}

function finalChunk(result: ActionResult, sandboxResult: SandboxResult | undefined): ToolChunk {
  const metadata = sandboxResult === undefined ? {} : { exitCode: sandboxResult.exitCode, timedOut: sandboxResult.timedOut, durationMs: sandboxResult.durationMs };
  return ToolChunk.text(result.ok ? (result.result as string) : (result.error ?? ''), {
    state: result.ok ? ToolResultState.SUCCESS : ToolResultState.ERROR,
    isLast: true,
    metadata,
  });
}

/**
 * The `Bash` tool over one sandbox, ready for `tools.register(...)`.
 *
 * @example
 * ```ts
 * await using sandbox = new BubblewrapSandbox({ workingDirectory: './project', writablePaths: ['./project'] });
 * const tools = new Tools().register(bashTool({ sandbox }));
 * ```
 */
export function bashTool(options: BashToolOptions): BashTool {
  return new BashTool(options);
}
