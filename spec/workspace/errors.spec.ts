import {
  AlreadyExistsError, AmbiguousMatchError, FileTooLargeError, InvalidArgumentError, InvalidPathError, NotADirectoryError,
  NotAFileError, NotFoundError, NotTextError, PathChangedError, PathOutsideWorkspaceError, TextNotFoundError,
  WorkspaceError, WorkspaceIoError,
} from '../../lib/workspace';
import { AgentToolkitError } from '../../lib/errors';
import { describeKind, errnoOf, toWorkspaceError } from '../../lib/workspace/local/io-errors';

const sysError = (code: string, message = `${code}: failed`): NodeJS.ErrnoException => Object.assign(new Error(message), { code });

describe('workspace errors', () => {
  it.each([
    [new PathOutsideWorkspaceError('p', 'reason'), 'PATH_OUTSIDE_WORKSPACE', /Refused 'p': reason\. Use a path inside the workspace/],
    [new InvalidPathError('a\0b', 'it holds NUL'), 'INVALID_PATH', /Invalid path 'a\\0b': it holds NUL\./],
    [new InvalidArgumentError('p', 'Bad thing.'), 'INVALID_ARGUMENT', /^Bad thing\.$/],
    [new NotFoundError('p'), 'NOT_FOUND', /'p' does not exist.*listDir or glob/],
    [new NotAFileError('p', 'a directory'), 'NOT_A_FILE', /'p' is a directory, not a regular file\. Use listDir/],
    [new NotAFileError('p', 'a socket'), 'NOT_A_FILE', /'p' is a socket, not a regular file\.$/],
    [new NotADirectoryError('p'), 'NOT_A_DIRECTORY', /'p' is not a directory/],
    [new AlreadyExistsError('p'), 'ALREADY_EXISTS', /already exists and overwrite is false/],
    [new FileTooLargeError('p', 11, 10), 'FILE_TOO_LARGE', /'p' is 11 bytes, over the workspace limit of 10 bytes/],
    [new NotTextError('p'), 'NOT_TEXT', /not valid UTF-8.*readBytes/],
    [new TextNotFoundError('p'), 'TEXT_NOT_FOUND', /not found in 'p'/],
    [new AmbiguousMatchError('p', 3), 'AMBIGUOUS_MATCH', /occurs 3 times in 'p'.*replaceAll/],
    [new PathChangedError('p', 'it moved'), 'PATH_CHANGED', /'p' changed while it was being used \(it moved\).*Retry/],
  ])('%p has code %s, the path, and a message that says why and what to do', (error, code, message) => {
    expect(error).toBeInstanceOf(WorkspaceError);
    expect(error).toBeInstanceOf(AgentToolkitError);
    expect(error.code).toBe(code);
    expect(error.path).toBe(error instanceof InvalidPathError ? 'a\0b' : 'p');
    expect(error.message).toMatch(message);
    expect(error.name).toBe(error.constructor.name);
  });

  it('describes system causes in words and keeps the cause and errno', () => {
    const cases: Array<[unknown, RegExp, string | undefined]> = [
      [sysError('EACCES'), /Could not write 'p': permission denied \(EACCES\)\.$/, 'EACCES'],
      [sysError('EPERM'), /permission denied \(EPERM\)/, 'EPERM'],
      [sysError('ENOSPC'), /no space left on the device/, 'ENOSPC'],
      [sysError('EROFS'), /read-only/, 'EROFS'],
      [sysError('EIO', 'EIO: i/o error'), /EIO: i\/o error/, 'EIO'],
      ['plain string', /plain string/, undefined],
    ];
    for (const [cause, message, errno] of cases) {
      const error = new WorkspaceIoError('p', 'write', cause);
      expect(error).toMatchObject({ code: 'IO_ERROR', errno, cause });
      expect(error.message).toMatch(message);
    }
  });
});

describe('toWorkspaceError', () => {
  it('maps system errors to workspace errors and passes workspace errors through', () => {
    const own = new NotFoundError('p');
    expect(toWorkspaceError(own, 'q', 'read')).toBe(own);
    expect(toWorkspaceError(sysError('ENOENT'), 'p', 'read')).toMatchObject({ code: 'NOT_FOUND', path: 'p' });
    expect(toWorkspaceError(sysError('ENOTDIR'), 'p', 'read')).toMatchObject({ code: 'NOT_A_DIRECTORY' });
    expect(toWorkspaceError(sysError('EISDIR'), 'p', 'read')).toMatchObject({ code: 'NOT_A_FILE' });
    expect(toWorkspaceError(sysError('EEXIST'), 'p', 'write')).toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(toWorkspaceError(sysError('ELOOP'), 'p', 'read')).toMatchObject({ code: 'INVALID_PATH' });
    expect(toWorkspaceError(sysError('EMFILE'), 'p', 'read')).toMatchObject({ code: 'IO_ERROR', errno: 'EMFILE' });
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf({ code: 5 })).toBeUndefined();
  });

  it('names special files', () => {
    const kind = (k: 'dir' | 'fifo' | 'socket' | 'device') => describeKind({
      isDirectory: () => k === 'dir', isFIFO: () => k === 'fifo', isSocket: () => k === 'socket',
    });
    expect([kind('dir'), kind('fifo'), kind('socket'), kind('device')])
      .toEqual(['a directory', 'a FIFO (named pipe)', 'a socket', 'a device or other special file']);
  });
});
