import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { loggerOptions } from './logging.js';
import { exitOnSignals, ignoreBrokenPipes } from './shutdown.js';
import { exitOnStartupError } from './startup-errors.js';

/** Starts one process with the embedded defaults: API, web app, queue and engine pool. */
ignoreBrokenPipes();
let started: (Awaited<ReturnType<typeof buildApp>> & { config: ReturnType<typeof loadConfig> }) | undefined;
// From the first moment: a signal while the server is still starting exits at once, and what has started goes with
// the process (the Auth emulator is killed on exit; its own process group does not get the signal).
exitOnSignals(
  async () => {
    if (!started) process.exit(1);
    await started.close();
  },
  { info: (msg) => started?.app.log.info(msg), error: (obj, msg) => started?.app.log.error(obj, msg) },
  { killNow: () => started?.pool?.killHostsNow() },
);
started = await (async () => {
  const config = loadConfig();
  const built = await buildApp({ config, logger: loggerOptions() });
  return { config, ...built };
})().catch(exitOnStartupError);
const { app, config, close } = started;
if (config.auth.mode === 'emulator' && config.hostExplicit && !isLoopback(config.host)) {
  app.log.warn(
    `HOST=${config.host} with emulator sign-in: the emulator accepts unsigned tokens, so anyone who can reach this ` +
      'address can sign in as anyone. Use AUTH_MODE=firebase for a server others can reach.',
  );
}
await app.listen({ port: config.port, host: config.host }).catch(async (err) => {
  await close().catch(() => {});
  exitOnStartupError(err);
});
if (started.metricsUrl) app.log.info(`Prometheus metrics at ${started.metricsUrl}`);

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
