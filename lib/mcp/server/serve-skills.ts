import type { RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { Skills } from '../../skills/skills';
import { McpServerError } from './errors';
import { sdkServer, type McpSdk1ServerLike, type McpServerLike } from './mcp-server-like';

/** The skills served as MCP prompts by {@link serveSkills}. */
export interface McpSkillPrompts {
  /**
   * Brings the prompts in line with `skills.list()`: adds new skills, removes gone ones (the SDK sends
   * `notifications/prompts/list_changed` for each). Call it after `skills.refresh()` or a watched change.
   */
  sync(): void;
  /** Removes every prompt it added. */
  close(): void;
}

/**
 * Serves each skill of `skills` as an MCP prompt (https://modelcontextprotocol.io/specification/2025-06-18/server/prompts)
 * on an `McpServer` you own: the prompt's name and description are the skill's; `prompts/get` loads the skill
 * (re-reading SKILL.md, so edited instructions show at once) and answers one user message holding its instructions
 * and, when it has any, the list of its resource files (paths relative to the skill folder). A prompt, not a tool:
 * the user picks a skill in the client, and its instructions enter the conversation; the model's own way to a skill
 * stays the viewer tool of `agenttoolkit/skills`. A skill that cannot be loaded any more answers a JSON-RPC error.
 *
 * @throws McpServerError `MCP_TOOL_NAME_TAKEN` when a prompt of that name is registered already.
 */
export function serveSkills(server: McpServerLike, skills: Skills): McpSkillPrompts {
  const served = new Map<string, RegisteredPrompt>();
  const add = (name: string, description: string) => {
    try {
      served.set(name, sdkServer(server as McpSdk1ServerLike).registerPrompt(name, { description }, () => skillPrompt(skills, name)));
    } catch (error) {
      throw new McpServerError('MCP_TOOL_NAME_TAKEN', `Prompt '${name}' is already registered on this McpServer; a skill of that name cannot be served as a prompt.`, { cause: error });
    }
  };
  const sync = () => {
    const current = new Map(skills.list().map((skill) => [skill.name, skill]));
    for (const [name, prompt] of served) {
      const skill = current.get(name);
      if (skill === undefined) {
        prompt.remove();
        served.delete(name);
      } else if (prompt.description !== skill.description) {
        prompt.update({ description: skill.description });
      }
    }
    for (const skill of current.values()) if (!served.has(skill.name)) add(skill.name, skill.description);
  };
  sync();
  return {
    sync,
    close() {
      for (const prompt of served.values()) prompt.remove();
      served.clear();
    },
  };
}

async function skillPrompt(skills: Skills, name: string): Promise<GetPromptResult> {
  const skill = await skills.load(name);
  const resources = skill.resources.length === 0 ? '' : `\n\nResource files of this skill (relative to ${skill.directory}):\n${skill.resources.map((path) => `- ${path}`).join('\n')}`;
  return {
    description: skill.description,
    messages: [{ role: 'user', content: { type: 'text', text: `${skill.instructions}${resources}` } }],
  };
}
