import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { brokenLinks, headingAnchors, markdownFiles, markdownLinks } from '../support/markdown-links';

const root = join(__dirname, '..', '..');
const docs = join(root, 'docs');
const index = join(docs, 'README.md');

describe('the docs index (docs/README.md)', () => {
  const text = readFileSync(index, 'utf8');
  const reading = text.slice(text.indexOf('## Read in this order'), text.indexOf('## Reference'));
  const order = markdownLinks(reading).map((l) => l.target);

  it('walks a newcomer through the guides in order: quickstart, tools, providers, MCP, permissions, built-ins, sandboxes, skills, frameworks', () => {
    const expected = ['quickstart.md', 'tools.md', 'providers/README.md', 'providers/mcp.md', 'permissions.md', 'builtins.md', 'sandbox.md', 'skills.md', 'frameworks/nestjs.md', 'frameworks/ai-sdk.md', 'frameworks/openai-agents.md'];
    const positions = expected.map((page) => order.indexOf(page));
    expect(positions.filter((p) => p < 0)).toEqual([]);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('links every page of docs/, and every page it links exists', () => {
    const linked = new Set(markdownLinks(text).map((l) => resolve(docs, l.target.split('#')[0]!)));
    const pages = markdownFiles(docs).filter((p) => p !== index);
    expect(pages.filter((p) => !linked.has(p)).map((p) => relative(root, p))).toEqual([]);
    expect(brokenLinks(index, root)).toEqual([]);
  });
});

describe('links in docs/ and README.md', () => {
  it.each([...markdownFiles(docs), join(root, 'README.md')].map((p) => [relative(root, p), p]))('%s: every relative link and #anchor resolves', (_name, page) => {
    expect(brokenLinks(page, root)).toEqual([]);
  });
});

describe('the link checker', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agenttoolkit-links-'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'page.md'), '# Page\n\n## Output schema (`returns`)\n\n## Twice\n\n## Twice\n\n<a id="custom"></a>\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds missing files and anchors, and accepts what exists', () => {
    const page = join(dir, 'index.md');
    writeFileSync(page, [
      '# Index', '', '[ok](sub/page.md) [ok](sub/page.md#output-schema-returns) [ok](sub/page.md#twice-1) [ok](sub/page.md#custom)',
      '[ok](#index) [ok](https://example.com/x.md) ![ok](sub/) [missing](nope.md) [bad anchor](sub/page.md#twice-2) [self](#nowhere)',
      '`[code](nope2.md)`', '```', '[fenced](nope3.md)', '```',
    ].join('\n'));
    expect(brokenLinks(page, dir)).toEqual([
      'index.md:4 nope.md (no such file)',
      'index.md:4 sub/page.md#twice-2 (no heading makes #twice-2)',
      'index.md:4 #nowhere (no heading makes #nowhere)',
    ]);
  });

  it('makes GitHub heading anchors', () => {
    expect([...headingAnchors('# A: b (`c`), d.e\n## A: b (`c`), d.e\n### [Link](x.md) and ümlaut_x\n')]).toEqual(['a-b-c-de', 'a-b-c-de-1', 'link-and-ümlaut_x']);
  });
});
