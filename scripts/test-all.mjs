#!/usr/bin/env node
// Runs every check of the project in order (typecheck, lint, unit and API tests, browser tests) and ends with
// one line summing all suites: "N passed, N failed, N skipped". Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const out = 'test-output';
fs.mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = []; // named again just above the last line, where a truncated log still shows them
let broken = false;

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.log(`=== ${name} exited with ${r.status ?? r.signal}`);
    broken = true;
  }
  return r.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const firstLine = (text) => (text ?? '').split('\n')[0];

// Playwright's report nests suites; a spec that failed on every try is "unexpected" (a retry's pass is "flaky").
function failedSpecs(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === 'unexpected'))
      .map((spec) => `${spec.file}:${spec.line} › ${spec.title}`),
    ...failedSpecs(suite.suites ?? []),
  ]);
}

// Typecheck and lint count as one check each.
for (const [name, args] of [
  ['typecheck', ['tsc', '-b']],
  ['lint', ['biome', 'check', '.']],
]) {
  if (step(name, 'npx', args)) totals.passed++;
  else {
    totals.failed++;
    failures.push(name);
  }
}

step('unit and API tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${out}/vitest.json`,
]);
const vitest = readJson(`${out}/vitest.json`);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
  for (const file of vitest.testResults) {
    const name = path.relative('.', file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) failures.push(`${name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file can fail outside its tests (an import, a hook).
    if (file.status === 'failed' && failed.length === 0) failures.push(`${name}: ${firstLine(file.message)}`);
  }
} else {
  totals.failed++;
  failures.push('vitest wrote no report');
}

if (step('web build', 'npm', ['run', 'build'])) {
  step('browser tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
    // Playwright resolves a relative name against its config's folder: give it an absolute one.
    PLAYWRIGHT_JSON_OUTPUT_NAME: path.resolve(out, 'playwright.json'),
  });
  const pw = readJson(`${out}/playwright.json`);
  if (pw?.stats) {
    totals.passed += pw.stats.expected;
    totals.passed += pw.stats.flaky ?? 0; // passed on retry; the list reporter names them
    totals.failed += pw.stats.unexpected;
    totals.skipped += pw.stats.skipped;
    failures.push(...failedSpecs(pw.suites ?? []));
  } else {
    totals.failed++;
    failures.push('playwright wrote no report');
  }
} else {
  totals.failed++;
  failures.push('web build');
}

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(broken || totals.failed > 0 ? 1 : 0);
