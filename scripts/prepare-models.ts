/**
 * Prepares the models the local engines derive from their npm packages (server/src/engines/models/prepare.ts), so
 * that no job pays for it. Runs after `npm install` (postinstall); an engine host prepares whatever is still missing
 * when it starts (Engine.warm), so a failure here only warns and never fails the install.
 * Run: npm run prepare-models   (writes to MODEL_CACHE_DIR, default $DATA_DIR/models, i.e. ./data/models)
 */
try {
  const { loadConfig } = await import('../server/src/config.js');
  const { prepareModels } = await import('../server/src/engines/models/prepare.js');
  console.log(`Preparing models in ${loadConfig().modelCacheDir}`);
  prepareModels(console.log);
} catch (err) {
  console.warn(`Models not prepared now (engine hosts prepare them at start): ${(err as Error).message}`);
}
