/**
 * Test-only: a `BashTool` option under this key replaces the read-only verdict the tool enforces with the sandbox's
 * `readOnly` option, so a spec can make a command that writes or connects be judged read-only and show that the
 * backend stops it. Not exported from the package: no host sets it.
 */
export const READ_ONLY_VERDICT: unique symbol = Symbol('agenttoolkit.bashReadOnlyVerdict');
