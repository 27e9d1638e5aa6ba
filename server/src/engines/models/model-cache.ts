import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder converted or joined model files are cached in. Engines do not read settings: whoever runs them tells
 * them where it is (the engine host from its options, which carry the server's MODEL_CACHE_DIR; the prepare-models
 * script from the settings). Engines run directly (tests, benchmarks) use the repository's data/models, the
 * server's default.
 */
let folder = fileURLToPath(new URL('../../../../data/models', import.meta.url));

export function setModelCacheDir(dir: string): void {
  folder = dir;
}

export function modelCacheDir(): string {
  return folder;
}

/**
 * The cached model file `file`, made by `make` and written (temp file, then rename) the first time. A preparation
 * costs seconds to a minute, which the job that needs it waits for: it is logged, so that the wait is explained.
 */
export function cachedModel(name: string, file: string, make: () => Uint8Array): string {
  const target = path.join(folder, file);
  if (fs.existsSync(target)) return target;
  const start = performance.now();
  console.log(`preparing the ${name} model in ${folder} (once: it is kept there)`);
  fs.mkdirSync(folder, { recursive: true });
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temp, make());
  fs.renameSync(temp, target);
  console.log(`prepared the ${name} model in ${((performance.now() - start) / 1000).toFixed(1)} s: ${target}`);
  return target;
}
