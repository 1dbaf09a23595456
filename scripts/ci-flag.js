'use strict';
// Whether this run is a CI run, read from the `CI` environment variable the way CI services set it: `CI=true` or
// `CI=1` is CI; unset, empty, `0`, `false`, `no` or `off` (any case) is not. Shared by jest.config.js (per-folder
// coverage gates) and spec/sandbox/helpers.ts (engine-backed suites fail instead of skipping in CI).

const OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * @param {string | undefined} [value] - the value of `CI` (default: `process.env.CI`).
 * @returns {boolean} true when `value` says this is a CI run.
 */
function isCI(value = process.env.CI) {
  return value !== undefined && !OFF.has(value.trim().toLowerCase());
}

module.exports = { isCI };
