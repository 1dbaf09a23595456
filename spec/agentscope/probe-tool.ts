import { Type, type Static } from '@sinclair/typebox';
import { PermissionDecision, type PermissionContext, type RuleBehavior } from '../../lib/permissions';
import { ToolBase } from '../../lib';
import { commandRule } from '../../lib/builtins';

export const ProbeInput = Type.Object({ command: Type.String() });
export type ProbeVerdict = 'allow' | 'deny' | 'ask' | 'immune' | 'passthrough';

const rules = commandRule('command');

/** A hand-written tool whose own verdict and read-only answer the test chooses. */
export class Probe extends ToolBase<typeof ProbeInput> {
  readonly seenModes: string[] = [];

  constructor(private readonly verdict: ProbeVerdict, private readonly readOnly = false, name = 'Bash') {
    super({ name, description: 'Runs a command.', inputSchema: ProbeInput });
  }

  checkPermissions(_input: Static<typeof ProbeInput>, context: PermissionContext): PermissionDecision {
    this.seenModes.push(context.mode);
    switch (this.verdict) {
      case 'allow':
        return PermissionDecision.allow('tool allows');
      case 'deny':
        return PermissionDecision.deny('tool denies');
      case 'ask':
        return PermissionDecision.ask('tool asks');
      case 'immune':
        return PermissionDecision.ask('safety check: dangerous path', { bypassImmune: true });
      default:
        return PermissionDecision.passthrough();
    }
  }

  override checkReadOnly(): boolean {
    return this.readOnly;
  }

  override matchRule(content: string, input: Static<typeof ProbeInput>, context: PermissionContext, behavior: RuleBehavior): boolean | Promise<boolean> {
    return rules.matchRule(content, input, context, behavior);
  }

  override generateSuggestions(input: Static<typeof ProbeInput>) {
    return rules.generateSuggestions(input, this.name);
  }

  override call({ command }: Static<typeof ProbeInput>): string {
    return `ran ${command}`;
  }
}
