import { requires } from '../context/availability';
import { ToolError } from '../errors';
import type { ActionResult } from '../result';
import type { Tool } from '../tool/tool';
import { ToolEffect } from '../tool/tool-effect';
import type { Tools } from '../tools';
import type { LoadedSkill } from './options';
import { SkillError } from './errors';
import { Skills } from './skills';

/** The default name of the skill viewer tool. */
export const SKILL_VIEWER_TOOL_NAME = 'view_skill';

/** Options of {@link registerSkillViewer}. */
export interface SkillViewerOptions {
  /** The tool name the model calls (default {@link SKILL_VIEWER_TOOL_NAME}). */
  readonly name?: string;
  /** The tool's group (default `"skills"`). */
  readonly group?: string;
}

/**
 * The viewer's params, as plain JSON Schema (the library loads no schema library at run time): an optional skill
 * name, no other field.
 */
export const SkillViewerParams = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The skill to open, exactly as listed. Omit it to list the available skills.' },
  },
  additionalProperties: false,
} as const;

/** The params the viewer receives. */
interface SkillViewerInput {
  readonly name?: string;
}

const DESCRIPTION =
  'Agent skills: packaged instructions for specific tasks. Call without a name to list the available skills with ' +
  'their descriptions; call with a skill name to get its full instructions and the files it ships (paths relative ' +
  "to the skill's directory). Open a skill before doing a task it describes.";

/**
 * Adds the ready-made skill viewer tool to `tools`, offered only when skills exist:
 * without arguments it returns the `<available_skills>` listing; with `name` it returns that skill's instructions,
 * re-read from disk, its directory and its resource paths. Failures (an unknown name, an invalid SKILL.md) come back
 * to the model as failed results naming the available skills or the broken rule.
 *
 * The registry is injected from the call's context (`ToolContext(skills)`), and the tool is available only when the
 * context holds a `Skills` with at least one skill. It declares `READS_WORKSPACE` and the tag `skills`.
 *
 * @example
 * ```ts
 * const tools = new Tools({ context: new ToolContext(await Skills.fromLocalDir('./skills')) });
 * registerSkillViewer(tools);
 * ```
 * @returns the registered tool.
 * @throws ToolDefinitionError when the name is taken or invalid.
 */
export function registerSkillViewer<R extends ActionResult<unknown>>(tools: Tools<R>, options: SkillViewerOptions = {}): Tool {
  return tools.action(
    {
      name: options.name ?? SKILL_VIEWER_TOOL_NAME,
      description: DESCRIPTION,
      group: options.group ?? 'skills',
      params: SkillViewerParams,
      inject: { skills: Skills },
      effects: [ToolEffect.READS_WORKSPACE],
      tags: ['skills'],
      availableWhen: requires(Skills, (skills) => skills.size > 0),
      status: (params: SkillViewerInput) => (params.name === undefined ? 'Listing skills...' : `Opening skill ${params.name}...`),
    },
    async (params: SkillViewerInput, { skills }) => (params.name === undefined ? skills.renderPrompt() : renderLoadedSkill(await loadSkill(skills, params.name))),
  );
}

/** Loads a skill; an unknown or invalid skill is the model's expected failure (a `ToolError`), not a bug. */
async function loadSkill(skills: Skills, name: string): Promise<LoadedSkill> {
  try {
    return await skills.load(name);
  } catch (error) {
    if (error instanceof SkillError) throw new ToolError(error.message, { cause: error });
    throw error;
  }
}

/** The text the viewer returns for one skill: a header (name, directory, resources), then the instructions. */
export function renderLoadedSkill(skill: LoadedSkill): string {
  return [
    `Skill: ${skill.name}`,
    `Directory: ${skill.directory}`,
    `Resources (relative to the directory):\n${resourceLines(skill.resources)}`,
    '',
    skill.instructions,
  ].join('\n');
}

/** The resource list of the viewer's text holds at most this many characters (a skill may list 10,000 deep paths). */
export const MAX_RESOURCE_LIST_CHARS = 20_000;

function resourceLines(resources: readonly string[]): string {
  if (resources.length === 0) return '(none)';
  const lines: string[] = [];
  let length = 0;
  for (const path of resources) {
    const line = `- ${path}`;
    if (length + line.length + 1 > MAX_RESOURCE_LIST_CHARS) {
      lines.push(`(${resources.length - lines.length} more not shown)`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}
