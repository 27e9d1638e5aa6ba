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
