export { BindMount } from './bind-mount';
export { BubblewrapSandbox, type BubblewrapSandboxOptions } from './bubblewrap-sandbox';
export { SandboxError, type SandboxErrorCode } from './errors';
export { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, SandboxPolicy, type SandboxLimits, type SandboxPolicyOptions } from './policy';
export type { SandboxCapabilities, SandboxExecuteOptions, Sandbox, SandboxOutputChunk, SandboxResult, SandboxShell } from './sandbox';
export { UnsafeLocalSandbox, type UnsafeLocalSandboxOptions } from './unsafe-local-sandbox';
