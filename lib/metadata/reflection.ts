import 'reflect-metadata';

/**
 * The one module that touches the Reflect metadata API (the `reflect-metadata` polyfill is imported here, so users never
 * have to import it themselves). Decorators write through {@link defineOwn}; the scanner reads through {@link getOwn}.
 */

/** Stores `value` under `key` on `target` (a prototype or a class), optionally for one member. */
export function defineOwn(key: symbol, value: unknown, target: object, member?: string | symbol): void {
  if (member === undefined) Reflect.defineMetadata(key, value, target);
  else Reflect.defineMetadata(key, value, target, member);
}

/** Reads the metadata stored under `key` on `target` itself (not inherited), or undefined. */
export function getOwn<T>(key: symbol, target: object, member?: string | symbol): T | undefined {
  return (member === undefined ? Reflect.getOwnMetadata(key, target) : Reflect.getOwnMetadata(key, target, member)) as T | undefined;
}

/**
 * The parameter types TypeScript emitted for a method (`design:paramtypes`, with `emitDecoratorMetadata`), or an empty
 * list when none were emitted (for example a method compiled without decorator metadata).
 */
export function designParamTypes(target: object, member: string | symbol): readonly unknown[] {
  return (Reflect.getOwnMetadata('design:paramtypes', target, member) as unknown[] | undefined) ?? [];
}
