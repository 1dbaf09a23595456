// Golden texts: exactly what the model reads from each file tool, success and failure, in one scripted session.
import { BACKENDS, harness } from './harness';

const SESSION: ReadonlyArray<readonly [string, Record<string, unknown>, 'ok' | 'error', string]> = [
  ['Write', { file_path: 'src/app.ts', content: 'export const a = 1;\nexport const b = 2;\n' }, 'ok', "Created 'src/app.ts' (2 lines)."],
  ['Write', { file_path: 'src/app.ts', content: 'x' }, 'ok', "Wrote 'src/app.ts' (1 line), replacing its previous content."],
  ['Write', { file_path: 'README.md', content: '# demo\n\nline 3\nline 4\nline 5\n' }, 'ok', "Created 'README.md' (5 lines)."],
  ['Read', { file_path: 'README.md', offset: null, limit: null }, 'ok', '     1\t# demo\n     2\t\n     3\tline 3\n     4\tline 4\n     5\tline 5'],
  ['Read', { file_path: 'README.md', offset: 2, limit: 2 }, 'ok', '     2\t\n     3\tline 3\n\n(Showing lines 2-3 of 5. Read again with offset 4 for more.)'],
  ['Read', { file_path: 'missing.md' }, 'error', "'missing.md' does not exist. Check the path with Glob."],
  ['Read', { file_path: '../etc/passwd' }, 'error', "Refused '../etc/passwd': its '..' segments climb above the root. Use a path inside the workspace (relative to its root)."],
  ['Edit', { file_path: 'README.md', old_string: 'line', new_string: 'row' }, 'error', "old_string occurs 3 times in 'README.md'. Include more surrounding text to make it unique, or set replace_all to replace every occurrence."],
  ['Edit', { file_path: 'README.md', old_string: 'line', new_string: 'row', replace_all: true }, 'ok', "Edited 'README.md': 3 replacements."],
  ['Edit', { file_path: 'README.md', old_string: 'nothing', new_string: 'x' }, 'error', "old_string was not found in 'README.md'. Read the file again and copy the text exactly, whitespace included, without the line number prefix."],
  ['Edit', { file_path: 'README.md', old_string: 'demo', new_string: 'demo' }, 'error', 'old_string and new_string are identical, so the edit would change nothing.'],
  ['Edit', { file_path: 'new.md', old_string: 'a', new_string: 'b' }, 'error', "'new.md' does not exist. Use Write to create a file."],
  ['Glob', { pattern: '**/*.md' }, 'ok', 'README.md'],
  ['Glob', { pattern: '**/*.rs', path: 'src' }, 'ok', "No files match '**/*.rs' in 'src'."],
];

describe.each(BACKENDS)('golden model texts on $name', (backend) => {
  it('matches the session transcript', async () => {
    const h = harness(backend);
    try {
      const transcript: string[] = [];
      for (const [name, args] of SESSION) {
        const result = await h.run(name, args);
        transcript.push(result.ok ? `ok: ${String(result.result)}` : `error: ${result.error!}`);
      }
      expect(transcript).toEqual(SESSION.map(([, , kind, text]) => `${kind}: ${text}`));
    } finally {
      h.dispose();
    }
  });

  it('a file never read cannot be overwritten: the refusal text', async () => {
    const h = harness(backend);
    try {
      await h.workspace.writeFile('notes.txt', 'theirs');
      expect(await h.error('Edit', { file_path: 'notes.txt', old_string: 'theirs', new_string: 'mine' }))
        .toBe("'notes.txt' exists and has not been read in this conversation. Read it first, then change it.");
    } finally {
      h.dispose();
    }
  });
});
