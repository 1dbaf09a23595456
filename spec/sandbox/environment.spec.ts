import { readInheritedEnvironment } from '../../lib/sandbox/environment';

describe('readInheritedEnvironment', () => {
  it('reads the named variables', () => {
    expect(readInheritedEnvironment(['A', 'B'], { A: '1', B: '2', C: '3' })).toEqual({ A: '1', B: '2' });
  });

  it('fails fast on a missing variable, naming it and no value', () => {
    expect(() => readInheritedEnvironment(['A', 'MISSING'], { A: 'secret-value' })).toThrow(
      expect.objectContaining({ code: 'ENVIRONMENT_MISSING', message: expect.not.stringContaining('secret-value') }),
    );
    expect(() => readInheritedEnvironment(['MISSING'], {})).toThrow(/MISSING is not set/);
  });

  it('refuses malformed names and values', () => {
    expect(() => readInheritedEnvironment(['A=B'], {})).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    expect(() => readInheritedEnvironment(['A'], { A: 'x\0y' })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });
});
