// bash reads `\<CR><LF>` as a quoted CR and then the end of the command, while the grammar reads a line continuation:
// `ls \<CR><LF>rm y` ran `rm y` under a deny rule for rm. Any carriage return makes the command unanalysable.
import { analyzeCommand } from '../../../lib/builtins/shell/analyze-command';

describe('a carriage return in a command', () => {
  it.each(['ls \\\r\nrm y', 'ls \\\r\ntouch /tmp/outside', 'echo a\rrm y', 'cat f.txt\r', 'ls "a\rb"'])('%j is unanalysable in bash and POSIX sh', async (command) => {
    for (const dialect of ['bash', 'posix'] as const) {
      expect((await analyzeCommand(command, { dialect })).unanalysable).toBe('a carriage return, which the shell and the parser read apart');
    }
  });

  it('a command without one is analysed as before', async () => {
    expect((await analyzeCommand('ls \\\nsrc', { dialect: 'bash' })).unanalysable).toBeUndefined();
  });
});
