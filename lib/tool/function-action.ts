import type { ObjectSchema, ParamsSchema } from '../schema/schema-types';
import type { ActionOptions } from './action-options';
import type { Token } from '../context/injection-token';
import { agentStateTraits } from './agent-state';
import { injected } from './class-tools';
import type { ActionFunction, FunctionActionOptions } from './function-tool-options';
import { Tool, type Invocation } from './tool';

const EMPTY_PARAMS = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false }) as ObjectSchema;
const NO_DEPENDENCIES = Object.freeze({});

type Body = (params: unknown, dependencies: unknown, invocation: Invocation) => unknown;

/**
 * Builds the {@link Tool} for `tools.action(options, fn)`: no params means an empty closed object; the `inject` map
 * is resolved per call (all required) and passed as the second argument; the group defaults to `"default"`.
 * @throws ToolDefinitionError as `new Tool` does.
 */
export function toolFromFunction<P extends ParamsSchema, D extends Record<string, Token<unknown>>>(options: FunctionActionOptions<P, D>, fn: ActionFunction<P, D>): Tool {
  const source = `tool '${options.name}'`;
  const body = fn as Body;
  const inject = Object.entries(options.inject ?? {}).map(([key, token]) => ({ key, record: { index: 0, token, optional: false, defaultValue: undefined } }));
  return new Tool({
    name: options.name,
    description: options.description,
    group: options.group ?? 'default',
    source,
    params: options.params ?? EMPTY_PARAMS,
    options: options as ActionOptions,
    traits: agentStateTraits(Object.values(options.inject ?? {})),
    approval: options.requiresApproval ?? false,
    body:
      inject.length === 0
        ? (params, invocation) => body(params, NO_DEPENDENCIES, invocation)
        : (params, invocation) => {
            const dependencies: Record<string, unknown> = {};
            for (const { key, record } of inject) dependencies[key] = injected(record, invocation, source);
            return body(params, dependencies, invocation);
          },
  });
}
