/**
 * `agenttoolkit/permissions`: the permission engine and its modes, rules (parse, format, settings files), decisions,
 * the permission middleware of the pipeline, and the path checks rules are built on (dangerous paths, working
 * directories, path rule matching). See docs/permissions.md.
 */
export { PermissionBehavior } from './permission-behavior';
export { PermissionMode } from './permission-mode';
export { PermissionConfigError, type PermissionConfigErrorCode } from './permission-error';
export {
  permissionRule,
  parsePermissionRule,
  formatPermissionRule,
  parsePermissionSettings,
  formatPermissionSettings,
  type PermissionRule,
  type PermissionSettings,
  type RuleBehavior,
} from './permission-rule';
export { PermissionDecision, type DecisionReason, type PermissionDecisionInit } from './permission-decision';
export { PermissionContext, type PermissionContextInit } from './permission-context';
export { PermissionEngine, type PermissionEngineOptions } from './permission-engine';
export { ruleNamesTool, type PermissionSubject } from './permission-subject';
export { DANGEROUS_PATHS, DANGEROUS_FILES, DANGEROUS_DIRECTORIES, isDangerousPath, type DangerousPathEntry, type DangerousPathOptions } from './dangerous-paths';
export { isInsideWorkingDirectories, realPathOf, type WorkingDirectoryOptions } from './working-directories';
export { PathResolutionError, type PathResolutionErrorCode } from '../fs/resolve-real-path';
export { pathRule, pathMatchesRule, type PathMatchOptions, type RuleHooks } from './rule-matchers';
export { escapePathPattern } from './path-pattern';
export { PermissionMiddleware, type PermissionMiddlewareOptions } from './permission-middleware';
export { type RuleCheckOptions, type RuleCheckReport, type RuleCheckTool } from './rule-check';
