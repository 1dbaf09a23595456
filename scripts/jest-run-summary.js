// A jest reporter that ends the run with one summary: how many suites and tests ran, passed, failed and were skipped,
// each reason for skipping once (read from a title made by spec/support/skip-reason.ts, `<name> (skipped: <reason>)`)
// with its count, and the failed tests by name. Beside jest's own `summary` reporter (failures in full), it replaces
// the default per-file output, so a green run prints little more than this.

const SKIPPED = /\(skipped: (.+)\)$/;

/** Why a test did not run: the reason in its own title or the nearest enclosing one, or where it was skipped. */
function reasonOf(test, file) {
  for (const title of [test.title, ...[...test.ancestorTitles].reverse()]) {
    const found = SKIPPED.exec(title);
    if (found) return found[1];
  }
  return `skipped in ${file} with no reason in its title`;
}

class RunSummary {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const reasons = new Map();
    const failed = [];
    for (const suite of results.testResults) {
      const file = suite.testFilePath.startsWith(`${this.rootDir}/`) ? suite.testFilePath.slice(this.rootDir.length + 1) : suite.testFilePath;
      if (suite.testExecError) failed.push(`${file}: could not run (${suite.testExecError.message.split('\n')[0]})`);
      for (const test of suite.testResults) {
        if (test.status === 'failed') failed.push(`${file} › ${test.fullName}`);
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
          const reason = reasonOf(test, file);
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      }
    }
    const seconds = Math.round((Date.now() - results.startTime) / 1000);
    const lines = [
      '',
      `Run summary: ${results.numTotalTestSuites} suites (${results.numFailedTestSuites} failed, ${results.numPendingTestSuites} skipped whole), ` +
        `${results.numTotalTests} tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests + results.numTodoTests} skipped, in ${seconds} s.`,
    ];
    if (reasons.size > 0) {
      lines.push('Skipped, and why:');
      for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(count).padStart(4)} ${count === 1 ? 'test ' : 'tests'}  ${reason}`);
    }
    if (failed.length > 0) {
      lines.push('Failed:');
      for (const name of failed) lines.push(`  ${name}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

module.exports = RunSummary;
