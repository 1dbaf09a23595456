import { ToolChunk } from '../streaming/tool-chunk';
import type { ExternalExecutionRequest } from './external-execution';

/** The metadata key under which a stream's chunk carries an {@link ExternalExecutionRequest}. */
export const EXTERNAL_EXECUTION_KEY = 'externalExecution';

/** The one chunk `tools.stream` yields for an external tool: no content, the request in its metadata. */
export function externalRequestChunk(request: ExternalExecutionRequest): ToolChunk {
  return new ToolChunk({ metadata: { [EXTERNAL_EXECUTION_KEY]: request }, isLast: true });
}
