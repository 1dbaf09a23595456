import { BindMount, SandboxPolicy } from '../../lib/sandbox';
import { dockerOptionsFromUrl } from '../../lib/sandbox/docker';
import { checkEnvironment, readInheritedEnvironment } from '../../lib/sandbox/environment';

describe('readInheritedEnvironment', () => {
  it('reads the named variables', () => {
    expect(readInheritedEnvironment(['A', 'B'], { A: '1', B: '2', C: '3' })).toEqual({ A: '1', B: '2' });
  });

  it('fails fast on a missing variable, naming it and no value', () => {
    expect(() => readInheritedEnvironment(['A', 'MISSING'], { A: 'secret-value' })).toThrow(
      expect.objectContaining({ code: 'ENVIRONMENT_MISSING', message: expect.not.stringContaining('secret-value') }),
    );
    expect(() => readInheritedEnvironment(['MISSING'], {})).toThrow(/"MISSING" is not set/);
  });

  it('refuses malformed names and values', () => {
    expect(() => readInheritedEnvironment(['A=B'], {})).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
    expect(() => readInheritedEnvironment(['A'], { A: 'x\0y' })).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });
});

describe('messages that quote a caller\'s text', () => {
  const thrown = (f: () => unknown): Error => {
    try {
      f();
    } catch (error) {
      return error as Error;
    }
    throw new Error('did not throw');
  };

  it.each([
    ['a policy variable written as NAME=VALUE', () => new SandboxPolicy({ environment: { 'API_KEY=sk-live-4711': 'x' } })],
    ['an inherited name written as NAME=VALUE', () => readInheritedEnvironment(['API_KEY=sk-live-4711'], {})],
    ['a call variable written as NAME=VALUE', () => checkEnvironment({ 'TOKEN=sk-live-4711': '' }, 'OPTIONS_INVALID', 'execute env')],
  ])('never show the value of %s', (_name, build) => {
    const error = thrown(build);
    expect(error).toMatchObject({ code: expect.stringMatching(/_INVALID$/) });
    expect(error.message).not.toContain('sk-live-4711');
  });

  it.each([
    ['a huge variable name', () => checkEnvironment({ [`${'N'.repeat(1_000_000)}\0`]: '' }, 'OPTIONS_INVALID', 'execute env')],
    ['a huge BindMount target', () => BindMount.readOnly('/tmp', `relative/${'t'.repeat(1_000_000)}`)],
    ['a huge Docker URL', () => dockerOptionsFromUrl(`ftp://${'h'.repeat(1_000_000)}`)],
    ['a name cut inside an emoji', () => checkEnvironment({ [`${'x'.repeat(196)}🎉\0`]: '' }, 'OPTIONS_INVALID', 'execute env')],
    ['a lone surrogate in a target', () => BindMount.readOnly('/tmp', 'rel\ud800')],
  ])('stay short and well-formed for %s', (_name, build) => {
    const error = thrown(build);
    expect(error.message.length).toBeLessThan(600);
    expect(error.message.isWellFormed()).toBe(true);
  });
});
