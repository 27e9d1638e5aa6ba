// `npm run generate:client`: writes client/src/schema.d.ts from the API's OpenAPI document, as a server on the
// embedded defaults serves it (a throwaway data directory; no sign-in emulator, no engines preloaded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSchema, SCHEMA_FILE } from '@ai-editor/client/generate';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aie-openapi-'));
const app = await buildApp({
  config: loadConfig({ DATA_DIR: dataDir, AUTH_EMULATOR_START: 'false', ENGINE_HOSTS: '1', ENGINE_PRELOAD: 'false' }),
});
try {
  const res = await app.app.inject({ method: 'GET', url: '/api/openapi.json' });
  fs.writeFileSync(SCHEMA_FILE, await generateSchema(res.json()));
  console.log(`wrote ${path.relative(process.cwd(), new URL(SCHEMA_FILE).pathname)}`);
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
