/**
 * Shell analysis: parsing a command with tree-sitter's bash grammar and turning it into simple commands and risk
 * features (target: analysis under 0.3 ms median for a 200-character compound command), and a command rule judged
 * through the permission engine. Each call analyses a different command (a counter in it), so the cache never answers.
 */
import { Type } from '@sinclair/typebox';
import { FunctionTool } from '../lib';
import { PermissionEngine } from '../lib/permissions';
import { analyzeCommand, commandRule, isReadOnlyCommand, loadBashParser } from '../lib/builtins';
import { formatNs, measure, printTable } from './harness';

/** A 200-character compound command: wrappers, quoting, a pipe, a substitution, redirections. */
export function compound(i: number): string {
  const text = `cd /srv/app && FOO=1 timeout 30 npm run build -- --mode=production 2>&1 | tee build-${i}.log; git add -A && git commit -m "release $(date +%F) #${i}" && sudo -u deploy rsync -az dist/ host:/var/www/ > /dev/null`;
  return text.length >= 200 ? text : text.padEnd(200, ' ');
}

/** A 200-character read-only compound command: git with a global option, sort, uniq, grep, wc, find, each judged by its option grammar. */
export function readOnlyCompound(i: number): string {
  const text = `git -C repo log --oneline -n 5 --author=x${i} | sort -u -k2 | uniq -c | head -n 20 && grep -rn --color=never -e foo src | wc -l; find . -name '*.ts' -type f -maxdepth 3 | sort --reverse | tail -5`;
  return text.length >= 200 ? text : text.padEnd(200, ' ');
}

export default async function run(): Promise<void> {
  const started = performance.now();
  const parser = await loadBashParser();
  const loadMs = performance.now() - started;
  const tool = new FunctionTool(() => 'ran', { name: 'Bash', description: 'Runs a command.', params: Type.Object({ command: Type.String() }), permissions: commandRule('command') });
  const engine = new PermissionEngine({ settings: { deny: ['Bash(rm:*)', 'Bash(curl:*)'], ask: ['Bash(git push:*)'], allow: ['Bash(npm run *)', 'Bash(git commit:*)'] } });
  const rows = [
    await measure('parse only (tree-sitter), 200 characters', (i) => parser.parse(compound(i))!.delete()),
    await measure('analyzeCommand, 200-character compound command', (i) => analyzeCommand(compound(i))),
    await measure('analyzeCommand, same, POSIX dialect', (i) => analyzeCommand(compound(i), { dialect: 'posix' })),
    await measure('analyzeCommand + isReadOnlyCommand, 200-character read-only compound (option grammars)', async (i) => isReadOnlyCommand(await analyzeCommand(readOnlyCompound(i)))),
    await measure('engine.check, 5 command rules, same command', (i) => engine.check(tool, { command: compound(i) })),
  ];
  printTable(`Shell analysis (command length ${compound(0).length}; parser loaded in ${loadMs.toFixed(1)} ms)`, ['operation', 'median', '± spread'], rows.map((r) => [r.name, formatNs(r.medianNs), formatNs(r.spreadNs)]));
}
