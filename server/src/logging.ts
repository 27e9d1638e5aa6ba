import type { Bindings, LogFn, LoggerOptions } from 'pino';

/**
 * The log: coloured, readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise (a container's
 * log collector). LOG_LEVEL sets the level; LOG_FORMAT=json or pretty overrides the choice.
 */
export function loggerOptions(env: NodeJS.ProcessEnv = process.env, tty = process.stdout.isTTY): LoggerOptions {
  const level = env.LOG_LEVEL ?? 'info';
  const pretty = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : tty === true;
  if (!pretty) return { level };
  return {
    level,
    transport: {
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
    },
  };
}

/** The log as services and adapters see it (Fastify's logger is one): no HTTP types below the routes. */
export interface Logger {
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  child(bindings: Bindings): Logger;
}
