import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.js';

export type { Logger };
export type LogFormat = 'json' | 'pretty';

/** The request being served in this async context (set by middleware/request-id.ts). */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Structured logs on stdout: JSON, one object per line, or `pretty` for people (LOG_FORMAT). Every
 * line written while a request is served carries its `reqId`, whichever module writes it.
 */
export function createLogger(level: LogLevel, format: LogFormat = 'json', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'lineage' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const request = requestContext.getStore();
      return request ? { reqId: request.requestId } : {};
    },
  };
  if (format === 'pretty')
    return pino(
      options,
      pretty({
        sync: true,
        colorize: Boolean(process.stdout.isTTY) && !destination,
        destination: destination ?? 1,
        ignore: 'service',
      }) as DestinationStream,
    );
  return destination ? pino(options, destination) : pino(options);
}
