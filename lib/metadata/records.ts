import type { Schema } from '../schema/schema-types';
import type { DescriptionSource } from '../context/context-description';
import type { Token } from '../context/injection-token';
import type { ActionOptions } from '../tool/action-options';

/** What `@Action` stores for a method. */
export interface ActionRecord {
  readonly description: string | DescriptionSource;
  readonly options: ActionOptions;
}

/** What `@Param` stores for one parameter of a plain-signature tool method. */
export interface ParamRecord {
  readonly index: number;
  readonly name: string;
  readonly schema: Schema | undefined;
  readonly description: string | undefined;
  readonly optional: boolean;
}

/** What `@Inject` stores for one parameter. */
export interface InjectRecord {
  readonly index: number;
  readonly token: Token<unknown>;
  readonly optional: boolean;
  readonly defaultValue: unknown;
}

/** What `@RequiresApproval` stores for a method. */
export interface ApprovalRecord {
  readonly predicate: ((params: never) => boolean) | undefined;
}

/** What `@ToolGroup` stores for a class. */
export interface GroupRecord {
  readonly name: string;
  readonly description: string | undefined;
}
