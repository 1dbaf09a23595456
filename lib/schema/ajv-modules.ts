import type { default as Ajv07 } from 'ajv';
import type { default as Ajv2019 } from 'ajv/dist/2019';
import type { default as Ajv2020 } from 'ajv/dist/2020';

/**
 * The Ajv modules the validator loads, each on first use. The published build replaces this module's JavaScript with
 * a single-file bundle of the same source, Ajv and ajv-formats included (`scripts/bundle.js`): one file to read where
 * the packages are about a hundred small modules, and each bundled module still runs only when the function that
 * requires it is first called, so a process whose schemas are all 2020-12 initialises one dialect class, and the
 * string formats only load with the first schema naming one.
 */

/** An instance of one of Ajv's dialect classes. */
export type AjvInstance = Ajv07 | Ajv2019 | Ajv2020;

/** The names of the modules loaded so far, in load order: `ajv` (draft-07), `ajv/2019`, `ajv/2020`, `ajv-formats`. */
const loaded: string[] = [];

function note(name: string): void {
  if (!loaded.includes(name)) loaded.push(name);
}

/* eslint-disable @typescript-eslint/no-require-imports -- each module is loaded on first use, off the import path */

/** Ajv's draft-07 class. */
export function ajvDraft07(): typeof Ajv07 {
  note('ajv');
  return (require('ajv') as { default: typeof Ajv07 }).default;
}

/** Ajv's 2019-09 class. */
export function ajv2019(): typeof Ajv2019 {
  note('ajv/2019');
  return (require('ajv/dist/2019') as { default: typeof Ajv2019 }).default;
}

/** Ajv's 2020-12 class. */
export function ajv2020(): typeof Ajv2020 {
  note('ajv/2020');
  return (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default;
}

/** ajv-formats' plugin, which adds the standard string formats to an instance. */
export function ajvFormats(): (ajv: AjvInstance) => AjvInstance {
  note('ajv-formats');
  return (require('ajv-formats') as { default: (ajv: AjvInstance) => AjvInstance }).default;
}

/* eslint-enable @typescript-eslint/no-require-imports */

/** The Ajv modules loaded so far in this process (see `loaded`): how the packed-package test checks lazy loading. */
export function loadedAjvModules(): readonly string[] {
  return [...loaded];
}
