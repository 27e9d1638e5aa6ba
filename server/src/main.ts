import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** Starts one process with the embedded defaults: API, web app, queue and engine pool. */
const config = settingsOrExit();
const { app, close } = await buildApp({ config, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
if (config.auth.mode === 'emulator' && config.hostExplicit && !isLoopback(config.host)) {
  app.log.warn(
    `HOST=${config.host} with emulator sign-in: the emulator accepts unsigned tokens, so anyone who can reach this ` +
      'address can sign in as anyone. Use AUTH_MODE=firebase for a server others can reach.',
  );
}
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

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** The settings; a bad one stops the start with its one-line message (naming the variable), without a stack. */
function settingsOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
