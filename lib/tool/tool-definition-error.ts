import { AgentToolkitError } from '../errors';

/**
 * A tool definition that cannot be registered: a bad name, a duplicate, a schema that is not JSON Schema, a parameter
 * without a schema, a status template naming an unknown parameter. Code: `TOOL_DEFINITION`. Thrown at registration,
 * never during a call; the message names the class, method (or tool) and what to change.
 */
export class ToolDefinitionError extends AgentToolkitError<'TOOL_DEFINITION'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('TOOL_DEFINITION', message, options);
  }
}
