import { AgentToolkitError } from '../errors';

/**
 * A permission configuration the host gave cannot be used. Codes:
 * - `INVALID_PERMISSION_RULE`: a rule string does not follow `Tool` or `Tool(content)` (the message quotes it and
 *   shows the accepted forms).
 * - `INVALID_PERMISSION_MODE`: a mode name is not one of the five modes.
 *
 * Thrown to the host (configuration time), never to a model.
 */
export class PermissionConfigError extends AgentToolkitError {
  constructor(code: 'INVALID_PERMISSION_RULE' | 'INVALID_PERMISSION_MODE', message: string) {
    super(code, message);
  }
}
