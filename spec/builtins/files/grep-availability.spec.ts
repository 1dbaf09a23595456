/**
 * Grep without ripgrep: not offered to the model (it could not act on a setup failure), and the developer is told why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinToolError } from '../../../lib/builtins/files/errors';

jest.mock('../../../lib/builtins/files/ripgrep-path', () => {
  const actual = jest.requireActual('../../../lib/builtins/files/ripgrep-path');
  return { ...actual, ripgrepPath: jest.fn(actual.ripgrepPath) };
});

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the mocked module, after jest.mock
const ripgrep = require('../../../lib/builtins/files/ripgrep-path') as { ripgrepPath: jest.Mock };
import { AGENT_STATE, ToolContext, Tools } from '../../../lib';
import { GrepTool } from '../../../lib/builtins';
import { LocalWorkspace } from '../../../lib/workspace';

describe('Grep when ripgrep cannot be found', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'grep-avail-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); ripgrep.ripgrepPath.mockReset(); });

  it('is not listed, and says why once, as a process warning and in unavailableReason', () => {
    const message = "Grep needs ripgrep: install the optional peer dependency '@vscode/ripgrep' (1.18 or later), or pass { rgPath: '/abs/path/to/rg' }.";
    ripgrep.ripgrepPath.mockImplementation(() => { throw new BuiltinToolError('RIPGREP_NOT_FOUND', message); });
    const warnings: Array<[string, string | undefined]> = [];
    const onWarning = (warning: Error & { code?: string }) => void warnings.push([warning.message, warning.code]);
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(((text: string, options?: { code?: string }) => onWarning(Object.assign(new Error(text), { code: options?.code }))) as never);
    try {
      const grep = new GrepTool({ workspace: new LocalWorkspace(dir) });
      const tools = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(grep);
      expect(tools.getAvailable().map((tool) => tool.name)).toEqual([]);
      expect(tools.getAvailable().map((tool) => tool.name)).toEqual([]);
      expect(grep.unavailableReason).toBe(`Grep is not offered: ${message}`);
      expect(warnings).toEqual([[`Grep is not offered: ${message}`, 'AGENTTOOLKIT_GREP_UNAVAILABLE']]);
    } finally {
      spy.mockRestore();
    }
  });

  it('is listed when ripgrep is found, or when rgPath is given (then ripgrep is not looked up)', () => {
    const found = new Tools({ context: new ToolContext().provide(AGENT_STATE, {}) }).register(new GrepTool({ workspace: new LocalWorkspace(dir) }));
    expect(found.getAvailable().map((tool) => tool.name)).toEqual(['Grep']);
    ripgrep.ripgrepPath.mockImplementation(() => { throw new BuiltinToolError('RIPGREP_NOT_FOUND', 'no'); });
    const given = new GrepTool({ workspace: new LocalWorkspace(dir), rgPath: '/usr/bin/rg' });
    expect(new Tools().register(given).getAvailable().map((tool) => tool.name)).toEqual(['Grep']);
    expect(given.unavailableReason).toBeUndefined();
  });
});
