import type { PermissionContext } from '../../permissions/permission-context';
import type { PermissionRule, RuleBehavior } from '../../permissions/permission-rule';
import type { ObjectSchema } from '../../schema/schema-types';
import { ToolBase, type ToolDefinition } from '../../tool/tool-base';
import type { FileToolOptions } from './file-tool-options';
import { PathPermissions } from './path-permissions';
import { WorkspacePaths } from './workspace-paths';

/**
 * The base of the file tools: each call names one path of the workspace, and path rules (`Read(src/**)`), suggestions
 * and the tool's own verdict judge that path's canonical form. By default the path is the `file_path` argument;
 * a tool that judges another path (Glob: the folder it searches) overrides {@link judgedPath}.
 */
export abstract class FilePathTool<P extends ObjectSchema> extends ToolBase<P> {
  protected readonly paths: WorkspacePaths;
  protected readonly permissions: PathPermissions;

  /**
   * @param options - the workspace and the file tools' shared options.
   * @param define - the tool's definition; it receives the permission helper, for `readOnlyWhen` predicates.
   */
  constructor(options: FileToolOptions, define: (permissions: PathPermissions) => ToolDefinition<P>) {
    const paths = new WorkspacePaths(options.workspace, options.root);
    const permissions = new PathPermissions(paths, options.credentialPaths);
    super(define(permissions));
    this.paths = paths;
    this.permissions = permissions;
  }

  /** The path a call is judged by, as the model wrote it, or undefined when the call names none. */
  protected judgedPath(input: Record<string, unknown>): string | undefined {
    return typeof input.file_path === 'string' ? input.file_path : undefined;
  }

  /** The path a suggestion is made for (default: {@link judgedPath}). */
  protected suggestedPath(input: Record<string, unknown>): string | undefined {
    return this.judgedPath(input);
  }

  override matchRule(content: string, input: Record<string, unknown>, context: PermissionContext, behavior: RuleBehavior): boolean {
    const path = this.judgedPath(input);
    return path !== undefined && this.permissions.matchRule(content, path, context, behavior);
  }

  override generateSuggestions(input: Record<string, unknown>, context?: PermissionContext): PermissionRule[] {
    const path = this.suggestedPath(input);
    return path === undefined ? [] : this.permissions.suggestions(path, this.name, context);
  }
}
