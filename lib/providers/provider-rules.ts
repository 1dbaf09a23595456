import { isNode, pointer, type SchemaNode } from '../schema/schema-walk';
import type { Tool } from '../tool/tool';
import { ToolDefinitionError } from '../tool/tool-definition-error';

/**
 * What one provider documents about a tool beyond its schema: the name it takes, how long a description may be, the
 * names it takes for the params' fields. The sources of each value are listed in docs/providers/limits.md.
 */
export interface ProviderRules {
  /** The provider as named in errors, e.g. `"Anthropic"`. */
  readonly provider: string;
  /** The tool names it takes, and those words for the error. */
  readonly toolName: { readonly pattern: RegExp; readonly rule: string };
  /** The longest tool description it takes, in UTF-16 code units (at least the characters the provider counts). */
  readonly maxDescription?: number;
  /** The names it takes for the top-level fields of the params object. */
  readonly fieldName?: { readonly pattern: RegExp; readonly rule: string };
}

/** OpenAI Chat Completions and Responses function tools (`FunctionDefinition.name`; the 1,024-character description cap is the API's `string_above_max_length` error). */
export const OPENAI_RULES: ProviderRules = {
  provider: 'OpenAI',
  toolName: { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: "1 to 64 letters, digits, '_' or '-'" },
  maxDescription: 1024,
};

/** Anthropic Messages tools: tool names, and the top-level `input_schema.properties` keys the API accepts. */
export const ANTHROPIC_RULES: ProviderRules = {
  provider: 'Anthropic',
  toolName: { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: "1 to 64 letters, digits, '_' or '-'" },
  fieldName: { pattern: /^[A-Za-z0-9_.-]{1,64}$/, rule: "1 to 64 letters, digits, '_', '.' or '-'" },
};

/** Gemini function declarations (`FunctionDeclaration.name`); parameter names are checked by `toGeminiSchema`. */
export const GEMINI_RULES: ProviderRules = {
  provider: 'Gemini',
  toolName: { pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, rule: "at most 64 letters, digits, '_', '.', ':' or '-', starting with a letter or '_'" },
};

/** MCP tools (tool names, specification 2025-11-25). */
export const MCP_RULES: ProviderRules = {
  provider: 'MCP',
  toolName: { pattern: /^[A-Za-z0-9_.-]{1,128}$/, rule: "1 to 128 letters, digits, '_', '.' or '-'" },
};

/**
 * Checks a tool's name, rendered description and top-level field names against a provider's rules.
 *
 * @throws ToolDefinitionError naming the tool, the provider, the offending name or path, and the rule.
 */
export function assertProviderRules(tool: Tool, description: string, parameters: SchemaNode, rules: ProviderRules): void {
  const refuse = (what: string, fix: string): never => {
    throw new ToolDefinitionError(`${tool.source}: ${rules.provider} cannot take this tool: ${what}. ${fix}`);
  };
  if (!rules.toolName.pattern.test(tool.name)) refuse(`its name '${tool.name}' is not ${rules.toolName.rule}`, 'Rename the tool with { name }.');
  if (rules.maxDescription !== undefined && description.length > rules.maxDescription) {
    refuse(`its description is ${description.length} characters long, over the ${rules.maxDescription} the provider takes`, 'Shorten the description; describe fields in their own schemas.');
  }
  const fieldName = rules.fieldName;
  if (fieldName !== undefined && isNode(parameters.properties)) {
    for (const key of Object.keys(parameters.properties)) {
      if (!fieldName.pattern.test(key)) refuse(`the schema at ${pointer('#/properties', key)} is named '${key}', not ${fieldName.rule}`, 'Rename the field.');
    }
  }
}
