import { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { loggerOptions } from '../src/logger';

export type LogLine = { level: number; msg?: string; req?: { url?: string }; [key: string]: unknown };

/** Pino's numeric levels. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** The production logger at `level`, writing to lines the test can read back. */
export function captureLogs(level = 'info'): {
  logger: FastifyServerOptions['logger'];
  raw: () => string;
  lines: () => LogLine[];
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    logger: { ...(loggerOptions(level) as object), stream },
    raw: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
  };
}
