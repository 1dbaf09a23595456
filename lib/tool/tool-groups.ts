import type { ObjectSchema } from '../schema/schema-types';
import { PermissionDecision } from '../permissions/permission-decision';
import { Tool } from './tool';
import { ToolDefinitionError } from './tool-definition-error';

/** The group that is always active; also the default group of `ToolBase` and `FunctionTool` tools. */
export const BASIC_GROUP = 'basic';

/** The name of the meta tool that switches groups. */
export const RESET_TOOLS = 'reset_tools';

/** A switchable group as listed by `tools.listGroups()`. */
export interface ToolGroupInfo {
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
}

const GROUP_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The switchable tool groups of one registry and the `reset_tools` meta tool that switches them.
 *
 * Only groups created here can be off. Every other group name (`basic`, the class names and `@ToolGroup` names that
 * `register(instance)` assigns, `"default"` for `tools.action`) is always active, so registering a class never hides
 * its tools; switching a class's tools needs an explicit `createGroup` for its group name.
 */
export class ToolGroups {
  private readonly groups = new Map<string, { description: string; active: boolean }>();

  /** @param onChange - called after `apply` switched at least one group. */
  constructor(private readonly onChange?: () => void) {}

  /** Whether tools of `group` may be listed and called now. */
  isActive(group: string): boolean {
    const entry = this.groups.get(group);
    return entry === undefined || entry.active;
  }

  /**
   * Adds a switchable group (off unless `active`).
   * @throws ToolDefinitionError for `basic`, a bad name (or `__proto__`), an empty description or a group that exists.
   */
  create(name: string, description: string, active: boolean): void {
    if (name === BASIC_GROUP) throw new ToolDefinitionError(`The '${BASIC_GROUP}' group is always active and cannot be switched. Pick another group name.`);
    // `__proto__` would be a reset_tools argument no schema or object copy keeps, so the group could never be switched on.
    if (!GROUP_NAME.test(name) || name === '__proto__') throw new ToolDefinitionError(`Tool group name '${name}' is not usable as a reset_tools argument: use 1 to 64 letters, digits, '_' or '-'.`);
    if (description.trim() === '') throw new ToolDefinitionError(`Tool group '${name}' needs a description: the model reads it to decide when to switch the group on.`);
    if (this.groups.has(name)) throw new ToolDefinitionError(`Tool group '${name}' already exists.`);
    this.groups.set(name, { description, active });
  }

  /** Sets the state of the named groups (unknown names ignored); returns the groups whose state changed. */
  apply(states: Readonly<Record<string, boolean>>): string[] {
    const changed: string[] = [];
    for (const [name, entry] of this.groups) {
      const next = states[name];
      if (typeof next === 'boolean' && next !== entry.active) {
        entry.active = next;
        changed.push(name);
      }
    }
    if (changed.length > 0) this.onChange?.();
    return changed;
  }

  /** Every switchable group with its state, in creation order. */
  list(): ToolGroupInfo[] {
    return [...this.groups].map(([name, { description, active }]) => ({ name, description, active }));
  }

  /** The failure message for a call of a tool whose group is off. */
  inactiveMessage(toolName: string, group: string): string {
    return `Tool '${toolName}' belongs to the tool group '${group}', which is not active. Activate it first: call ${RESET_TOOLS} with "${group}": true (and the state you want for the other groups), then call '${toolName}' again.`;
  }

  /**
   * Builds the meta tool: one required boolean per group, the final state (not a toggle). Its result names the
   * active groups and the tools each one brings. Always allowed; read-only for the permission engine (it changes
   * which tools are offered, not the world).
   */
  metaTool(toolsOf: (group: string) => string[]): Tool {
    const properties = Object.fromEntries([...this.groups].map(([name, { description }]) => [name, { type: 'boolean', description }]));
    return new Tool({
      name: RESET_TOOLS,
      description:
        'Switch tool groups on or off. Pass the final state of every group: true = its tools are available, false = they are not. ' +
        'Groups: ' + [...this.groups].map(([name, g]) => `${name} (${g.description})`).join('; ') + '.',
      group: BASIC_GROUP,
      source: `meta tool '${RESET_TOOLS}'`,
      params: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false } as unknown as ObjectSchema,
      options: {},
      approval: false,
      body: (params) => {
        this.apply(params as Record<string, boolean>);
        const active = this.list().filter((g) => g.active);
        const lines = active.map((g) => `- ${g.name}: ${toolsOf(g.name).join(', ') || '(no tools)'}`);
        const inactive = this.list().filter((g) => !g.active).map((g) => g.name);
        return [`Active tool groups: ${BASIC_GROUP} (always)${active.length ? ', ' + active.map((g) => g.name).join(', ') : ''}.`, ...lines, inactive.length ? `Inactive: ${inactive.join(', ')}.` : 'No group is inactive.'].join('\n');
      },
      traits: { isReadOnly: true, isConcurrencySafe: false, checkPermissions: () => PermissionDecision.allow('Switching tool groups is always allowed.') },
    });
  }
}
