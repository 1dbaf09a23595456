/**
 * How permissive the {@link PermissionEngine} is. Deny rules, ask
 * rules and read-only auto-allow apply in every mode; the modes differ in what happens after them:
 *
 * - `DEFAULT`: the tool's own check, then allow rules, else ask.
 * - `ACCEPT_EDITS`: as `DEFAULT`; tools that edit files auto-allow edits inside the working directories themselves
 *   (they read `context.mode`).
 * - `EXPLORE`: read-only: whatever is not read-only is denied; allow rules are never consulted.
 * - `BYPASS`: no prompts: the tool's ALLOW/DENY is honoured, every ASK from the tool (even bypass-immune) is skipped;
 *   ask rules still ask.
 * - `DONT_ASK`: as `DEFAULT`, but every ASK becomes DENY (keeping its reason and suggestions): for unattended runs.
 */
export enum PermissionMode {
  /** The tool's own check, then allow rules, else ask. */
  DEFAULT = 'default',
  /** As `DEFAULT`; file-editing tools auto-allow edits inside the working directories. */
  ACCEPT_EDITS = 'accept_edits',
  /** Read-only: whatever is not read-only is denied. */
  EXPLORE = 'explore',
  /** No prompts: every ASK from the tool is skipped; ask rules still ask. */
  BYPASS = 'bypass',
  /** As `DEFAULT`, but every ASK becomes DENY: for unattended runs. */
  DONT_ASK = 'dont_ask',
}
