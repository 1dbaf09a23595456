import { AgentToolkitError } from '../lib/errors';

describe('AgentToolkitError', () => {
  it('keeps its code, message, cause and subclass name', () => {
    class WorkspaceTestError extends AgentToolkitError {}
    const cause = new Error('root cause');
    const error = new WorkspaceTestError('SOME_CODE', 'what went wrong', { cause });
    expect(error.code).toBe('SOME_CODE');
    expect(error.message).toBe('what went wrong');
    expect(error.name).toBe('WorkspaceTestError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });
});
