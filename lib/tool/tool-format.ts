import type { Tool } from './tool';

/**
 * The provider-format port: how one provider wants a tool described (OpenAI, Anthropic, ...). Adapters live in
 * `lib/providers/`; `tools.getSchema(format)` calls {@link ToolFormat.render} once per available tool.
 *
 * `render` receives the tool (name, plain JSON Schema `parameters`, effects for formats that derive hints) and the
 * description already rendered against the context. It returns the provider's entry, or throws a
 * `ToolDefinitionError` naming the tool when its schema cannot be expressed in this format; the registry then leaves
 * that tool out of this format's listing (and logs why) without affecting the other tools.
 */
export interface ToolFormat<TEntry> {
  /** A stable identifier, such as `"openai"`; cache key for rendered entries. */
  readonly id: string;
  /** The provider's entry for `tool`, with `description` already rendered against the context. */
  render(tool: Tool, description: string): TEntry;
}

/** The entry type a format produces. */
export type FormatEntry<F> = F extends ToolFormat<infer E> ? E : never;
