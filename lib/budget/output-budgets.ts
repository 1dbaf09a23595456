import { toBinaryContent } from '../media/binary-content';
import { isLinkedContent, LinkedContent, type ResourceLink } from '../media/resource-link';
import type { ToolLogger } from '../pipeline/logger';
import type { ActionResult } from '../result';
import { isContentBlocks } from '../streaming/tool-response';
import type { ToolChunk } from '../streaming/tool-chunk';
import type { Tool } from '../tool/tool';
import { cutOutput, fitsBudget } from './cut-output';
import { checkOutputBudget, resolveBudget, type OutputBudget, type OutputWorkspace, type ResolvedBudget } from './output-budget';
import { markerWriter, readSavedOutput, saveOutput, savedOutputLink, type SavedOutput } from './saved-output';
import { StreamLimit } from './stream-limit';

/**
 * A registry's output budgets (`new Tools({ outputBudget })` and each tool's `outputBudget`): applies them to the
 * results of calls and to streamed output, saves cut outputs, and reads them back. Reached as `tools.outputBudgets`.
 */
export class OutputBudgets {
  private readonly resolved = new WeakMap<Tool, ResolvedBudget | null>();
  private readonly workspaces = new Set<OutputWorkspace>();
  /** Results a stream limit already held to the budget (their marker is final: they are not cut or saved again). */
  private readonly final = new WeakSet<ActionResult<unknown>>();

  /** @throws CoreError `INVALID_OPTION` when `registry` is not a valid {@link OutputBudget}. */
  constructor(
    readonly registry: OutputBudget | undefined,
    private readonly log: ToolLogger,
  ) {
    checkOutputBudget(registry, 'Tools');
    if (registry?.workspace !== undefined) this.workspaces.add(registry.workspace);
  }

  /**
   * Checks a tool's own budget at registration.
   * @throws CoreError `INVALID_OPTION` when it is not a valid budget (or `false`).
   */
  check(tool: Tool): void {
    const own = ownBudget(tool);
    checkOutputBudget(own, `tool '${tool.name}'`);
    if (own !== false && own?.workspace !== undefined) this.workspaces.add(own.workspace);
  }

  /**
   * The budget that applies to `tool`'s results, or undefined when none does. An external tool has none: its call's
   * result is the execution request handed to the host, and the host's outcome comes back through `completeExternal`.
   */
  budgetOf(tool: Tool): ResolvedBudget | undefined {
    // No registry budget and none of the tool's own: nothing applies (the common case, answered without a lookup).
    if (this.registry === undefined && !tool.extras.outputBudget) return undefined;
    let budget = this.resolved.get(tool);
    if (budget === undefined) {
      budget = (tool.isExternalTool ? undefined : resolveBudget(this.registry, ownBudget(tool))) ?? null;
      this.resolved.set(tool, budget);
    }
    return budget ?? undefined;
  }

  /** Whether any budget saves outputs in a workspace (an MCP server then serves them as resources). */
  get savesOutputs(): boolean {
    return this.workspaces.size > 0;
  }

  /**
   * A saved output's text by its file name, path or `tool-output://` URI, from any workspace this registry's budgets
   * save to; undefined when there is none (or the reference names something else: see `savedOutputId`).
   */
  async read(reference: string): Promise<string | undefined> {
    for (const workspace of this.workspaces) {
      const text = await readSavedOutput(workspace, reference).catch(() => undefined);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /**
   * `result` within `tool`'s budget (see docs/output-budgets.md): a text or JSON result, or a failure's text, over
   * budget keeps head and tail around a marker, after the full text is saved when the budget has a workspace (the
   * result then carries a resource link to it). Binary results, content blocks holding media, and the non-text
   * results of a tool that declares `returns` are not budgeted. Never throws: a workspace that cannot save is logged
   * and the text is cut without saving.
   */
  async apply<R extends ActionResult<unknown>>(tool: Tool, result: R): Promise<R> {
    const budget = this.budgetOf(tool);
    if (budget === undefined || this.final.has(result)) return result;
    const value = result.result;
    const text = result.ok ? budgetedText(value, tool) : result.error;
    if (text === undefined || fitsBudget(text, budget)) return result;
    const saved = await this.save(budget, tool.name, text);
    const cut = cutOutput(text, budget, markerWriter(saved, budget.readTool));
    if (!result.ok) return result.with({ error: cut } as Partial<R>);
    const links: ResourceLink[] = isLinkedContent(value) ? [...value.links] : [];
    if (saved !== undefined) links.push(savedOutputLink(saved, tool.name));
    return result.with({ result: links.length > 0 ? new LinkedContent(cut, links) : cut } as Partial<R>);
  }

  /** A limit for `tool`'s streamed output, or undefined when no budget applies. */
  limitStream(tool: Tool): StreamLimit | undefined {
    const budget = this.budgetOf(tool);
    return budget === undefined ? undefined : new StreamLimit(budget, (text) => this.save(budget, tool.name, text), tool.name, (result) => this.final.add(result));
  }

  /** Wraps `source` in `limit` when there is one. */
  static limited(limit: StreamLimit | undefined, source: AsyncIterable<ToolChunk>): AsyncIterable<ToolChunk> {
    return limit === undefined ? source : limit.wrap(source);
  }

  private async save(budget: ResolvedBudget, toolName: string, text: string): Promise<SavedOutput | undefined> {
    if (budget.workspace === undefined || text.length > budget.maxSavedChars) return undefined;
    try {
      return await saveOutput(budget.workspace, toolName, text);
    } catch (error) {
      this.log.warn(`The full output of tool '${toolName}' could not be saved; it is cut without a copy`, { error: (error as Error | null)?.message });
      return undefined;
    }
  }
}

/** A tool's own `outputBudget` option. */
function ownBudget(tool: Tool): OutputBudget | false | undefined {
  return tool.extras.outputBudget;
}

/** The text a budget measures for a successful result's value, or undefined when it does not budget that value. */
function budgetedText(value: unknown, tool: Tool): string | undefined {
  if (typeof value === 'string') return value;
  if (isLinkedContent(value)) return value.text;
  if (value === undefined || tool.extras.outputSchema !== undefined || toBinaryContent(value) !== undefined) return undefined;
  if (isContentBlocks(value) || (Array.isArray(value) && value.some((item) => toBinaryContent(item) !== undefined))) return undefined;
  try {
    const text = JSON.stringify(value) as string | undefined;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
