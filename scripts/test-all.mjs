#!/usr/bin/env node
// Runs every check of the project in order (typecheck, lint, unit and API tests, browser tests) and ends with
// one line summing all suites: "N passed, N failed, N skipped". Exits non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const out = 'test-output';
fs.mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
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

// Typecheck and lint count as one check each.
for (const [name, args] of [
  ['typecheck', ['tsc', '-b']],
  ['lint', ['biome', 'check', '.']],
]) {
  if (step(name, 'npx', args)) totals.passed++;
  else totals.failed++;
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
} else totals.failed++;

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
  } else totals.failed++;
} else totals.failed++;

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(broken || totals.failed > 0 ? 1 : 0);
