/**
 * `agenttoolkit/skills`: local Agent Skills (SKILL.md) discovery, progressive loading, refresh and watching, the
 * refresh middleware and the skill viewer tool.
 * Named exports only: every export here is public API (docs/skills.md).
 */
export { Skills } from './skills';
export type { LoadedSkill, SkillLogger, SkillsOptions, SkillWatchOptions } from './options';
export type { Skill } from './skill-folder';
export type { SkillManifest } from './manifest';
export { isValidSkillName, MAX_SKILL_COMPATIBILITY_LENGTH, MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH } from './manifest';
export type { SkillChanges } from './changes';
export { hasSkillChanges } from './changes';
export type { SkillLimits } from './limits';
export { DEFAULT_SKILL_LIMITS } from './limits';
export { escapeXml, renderSkillsPrompt } from './prompt';
export { SkillRefreshMiddleware, writesWorkspace } from './refresh-middleware';
export type { SkillRefreshOptions } from './refresh-middleware';
export { registerSkillViewer, renderLoadedSkill, SKILL_VIEWER_TOOL_NAME, SkillViewerParams } from './viewer-tool';
export type { SkillViewerOptions } from './viewer-tool';
export type { SkillErrorCode, SkillRule } from './errors';
export {
  InvalidSkillError,
  SkillChangedError,
  SkillDiscoveryError,
  SkillError,
  SkillNotFoundError,
  SkillOptionsError,
  SkillOutsideRootError,
  SkillReadError,
  SkillRootError,
  SkillWatchError,
} from './errors';
export { skillAllowRules } from './allow-rules';
