#!/usr/bin/env node
// Puts back into package-lock.json the other platforms' optional binaries (biome's CLI for macOS, Windows, musl...)
// that npm leaves out when the registry it reaches does not serve them. Without them `npm ci` refuses the
// lockfile as out of sync. Run it after any `npm install` that rewrote the lockfile; `npm run check:lockfile`
// (and CI) fails when an entry is missing. Each entry carries its platform, so npm skips it on other machines.
import fs from 'node:fs';

const FILE = new URL('../package-lock.json', import.meta.url);
const checkOnly = process.argv.includes('--check');
const lock = JSON.parse(fs.readFileSync(FILE, 'utf8'));
const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'sunos', 'aix'];

/** '@biomejs/cli-linux-x64-musl' -> { os: ['linux'], cpu: ['x64'], libc: ['musl'] } */
function platformOf(name) {
  const m = name.match(
    new RegExp(`(?:^|[-/])(${OS.join('|')})-(x64|arm64|arm|ia32|ppc64|s390x|riscv64)(?:-(musl|gnu))?$`),
  );
  if (!m) return undefined;
  const libc = m[3] === 'musl' ? ['musl'] : m[1] === 'linux' ? ['glibc'] : undefined;
  return { os: [m[1]], cpu: [m[2]], ...(libc && { libc }) };
}

const missing = [];
for (const [where, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const hoisted = `node_modules/${name}`;
    const nested = `${where ? `${where}/` : ''}node_modules/${name}`;
    if (lock.packages[hoisted] || lock.packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue; // only exact, platform-specific binaries
    missing.push(name);
    lock.packages[hoisted] = { version, ...(pkg.dev && { dev: true }), optional: true, ...platform };
  }
}

if (checkOnly) {
  if (missing.length) {
    console.error(`package-lock.json lacks ${missing.join(', ')}: run node scripts/complete-lockfile.mjs`);
    process.exit(1);
  }
  console.log('package-lock.json: every platform binary is listed');
} else {
  fs.writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(missing.length ? `added ${missing.join(', ')}` : 'nothing to add');
}
