import { MetadataKeys } from './keys';
import type { ActionRecord, ApprovalRecord, GroupRecord, InjectRecord, ParamRecord } from './records';
import { designParamTypes, getOwn } from './reflection';

/** One `@Action` method found on a class, with the metadata that applies to it. */
export interface ScannedAction {
  readonly member: string | symbol;
  /** `Class.method`, for error messages. */
  readonly where: string;
  readonly action: ActionRecord;
  readonly params: readonly ParamRecord[];
  readonly injects: readonly InjectRecord[];
  readonly approval: ApprovalRecord | undefined;
  /** `design:paramtypes` of the declaration the params and injections come from. */
  readonly paramTypes: readonly unknown[];
}

/** Everything the scanner learned about a class. */
export interface ScannedClass {
  readonly group: GroupRecord;
  readonly actions: readonly ScannedAction[];
}

const cache = new WeakMap<abstract new (...args: never[]) => unknown, ScannedClass>();

/**
 * Walks a class's prototype chain once (the result is cached per class) and collects its `@Action` methods.
 *
 * Inheritance follows NestJS-style services: decorators on a base class apply to subclasses; a subclass overriding a
 * method without decorators keeps the base's metadata (and its own implementation runs); each kind of metadata
 * (`@Action`, `@Param`/`@Inject`, `@RequiresApproval`) comes from the nearest class in the chain that declares it for
 * that method, so a subclass can replace any of them.
 */
export function scanClass(ctor: abstract new (...args: never[]) => unknown): ScannedClass {
  let scanned = cache.get(ctor);
  if (scanned === undefined) {
    scanned = { group: groupOf(ctor), actions: scanActions(ctor) };
    cache.set(ctor, scanned);
  }
  return scanned;
}

function scanActions(ctor: abstract new (...args: never[]) => unknown): ScannedAction[] {
  const protos: object[] = [];
  for (let proto = ctor.prototype as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    protos.push(proto);
  }
  const members: Array<string | symbol> = [];
  for (const proto of protos) {
    for (const member of getOwn<Array<string | symbol>>(MetadataKeys.actionMethods, proto) ?? []) {
      if (!members.includes(member)) members.push(member);
    }
  }
  return members.map((member) => {
    const nearest = (key: symbol) => protos.find((proto) => getOwn(key, proto, member) !== undefined);
    const actionProto = nearest(MetadataKeys.action)!;
    const signatureProto = nearest(MetadataKeys.params) ?? nearest(MetadataKeys.inject) ?? actionProto;
    const approvalProto = nearest(MetadataKeys.approval);
    return {
      member,
      where: `${ctor.name}.${String(member)}`,
      action: getOwn<ActionRecord>(MetadataKeys.action, actionProto, member)!,
      params: getOwn<ParamRecord[]>(MetadataKeys.params, signatureProto, member) ?? [],
      injects: getOwn<InjectRecord[]>(MetadataKeys.inject, signatureProto, member) ?? [],
      approval: approvalProto && getOwn<ApprovalRecord>(MetadataKeys.approval, approvalProto, member),
      paramTypes: designParamTypes(signatureProto, member),
    };
  });
}

function groupOf(ctor: abstract new (...args: never[]) => unknown): GroupRecord {
  for (let c: unknown = ctor; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const record = getOwn<GroupRecord>(MetadataKeys.group, c);
    if (record !== undefined) return record;
  }
  return { name: ctor.name, description: undefined };
}
