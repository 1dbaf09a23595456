import { resolve } from 'node:path';
import { BindMount } from '../../lib/sandbox';

describe('BindMount', () => {
  it('resolves the host path and normalises the target', () => {
    expect(BindMount.readOnly('cfg', '/home/agent/.config/')).toMatchObject({ source: resolve('cfg'), target: '/home/agent/.config', readOnly: true });
    expect(BindMount.readWrite('/out', '//output')).toMatchObject({ source: '/out', target: '/output', readOnly: false });
  });

  it.each(['relative', '/', '//', '/a/../etc', ''])('refuses the target %p', (target) => {
    expect(() => BindMount.readOnly('/src', target)).toThrow(expect.objectContaining({ code: 'MOUNT_INVALID' }));
  });
});
