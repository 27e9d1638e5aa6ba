import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** Starts one process with the embedded defaults: API, web app, queue and engine pool. */
const config = loadConfig();
const { app, close } = await buildApp({ config, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
await app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: finishing running jobs`);
    await close();
    process.exit(0);
  });
}
