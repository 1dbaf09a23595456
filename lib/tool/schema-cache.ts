import type { ToolContext } from '../context/tool-context';
import { deepFreeze } from '../schema/deep-freeze';
import type { Tool } from './tool';
import { ToolDefinitionError } from './tool-definition-error';
import type { ToolFormat } from './tool-format';

/**
 * Rendered provider entries, computed once per tool and format and frozen (a context-rendered description is rendered
 * each time instead). `clear()` on every registration change.
 */
export class SchemaCache {
  private readonly byFormat = new Map<ToolFormat<unknown>, Map<Tool, unknown>>();
  /** Tools a format refused, so a listing in a loop reports each refusal once, not once per turn. */
  private readonly refused = new Map<ToolFormat<unknown>, Set<Tool>>();

  /**
   * The entry of `tool` in `format`, or `undefined` when the format cannot express it: `onRefused` then receives the
   * format's `ToolDefinitionError` (also when the tool's description renderer throws), the first time only (until
   * `clear()`). Other errors (bugs in a format) propagate.
   */
  entry<E>(format: ToolFormat<E>, tool: Tool, context: ToolContext, onRefused: (tool: Tool, error: ToolDefinitionError) => void): E | undefined {
    let cache = this.byFormat.get(format);
    if (cache === undefined) this.byFormat.set(format, (cache = new Map()));
    const cacheable = !tool.hasContextDescription;
    if (cacheable && this.refused.get(format)?.has(tool)) return undefined;
    let entry = cacheable ? (cache.get(tool) as E | undefined) : undefined;
    if (entry === undefined) {
      let description: string;
      try {
        description = tool.resolveDescription(context);
      } catch (error) {
        // A description renderer that throws for one tool must not take the whole listing down with it.
        onRefused(tool, new ToolDefinitionError(`${tool.source}: the description could not be rendered (${(error as Error | null)?.message ?? String(error)}).`, { cause: error }));
        return undefined;
      }
      try {
        entry = deepFreeze(format.render(tool, description));
      } catch (error) {
        if (!(error instanceof ToolDefinitionError)) throw error;
        onRefused(tool, error);
        if (cacheable) {
          const refused = this.refused.get(format) ?? new Set<Tool>();
          this.refused.set(format, refused.add(tool));
        }
        return undefined;
      }
      if (cacheable) cache.set(tool, entry);
    }
    return entry;
  }

  clear(): void {
    this.byFormat.clear();
    this.refused.clear();
  }
}
