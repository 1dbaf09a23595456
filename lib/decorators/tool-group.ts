import { MetadataKeys } from '../metadata/keys';
import type { GroupRecord } from '../metadata/records';
import { defineOwn } from '../metadata/reflection';

/**
 * Names the tool group a class's tools belong to when an instance is registered (default: the class name), with an
 * optional description for hosts that list or switch groups.
 */
export function ToolGroup(name: string, options: { description?: string } = {}): ClassDecorator {
  return (target) => {
    const record: GroupRecord = { name, description: options.description };
    defineOwn(MetadataKeys.group, record, target);
  };
}
