import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/** Structured JSON logs on stdout, one object per line. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'lineage' }, timestamp: pino.stdTimeFunctions.isoTime });
}
