/** Whether `value` (default: `process.env.CI`) says this is a CI run: unset, empty, `0`, `false`, `no`, `off` say no. */
export declare function isCI(value?: string): boolean;
