import type { FastifyServerOptions } from 'fastify';

const SECRET_IN_URL = [
  [/\/login\/[^/?#]+/gi, '/login/[redacted]'],
  [/sdk-(srv|js)-env-[0-9a-f]+/gi, 'sdk-$1-env-[redacted]'],
  [/([?&](token|key|activationKey|password)=)[^&#]*/gi, '$1[redacted]'],
  [/\/invitee\/[^/?#]+/gi, '/invitee/[redacted]'],
] as const;

/** Removes secrets that can travel in a URL (one-time tokens, SDK keys, reset keys) before logging. */
export function redactUrl(url: string): string {
  return SECRET_IN_URL.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), url);
}

/** JSON logs; credentials never reach them (headers, cookies, bodies' passwords and tokens). */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.id_token',
        '*.apiKey',
        '*.jsApiKey',
        '*.serverApiKey',
        '*.key',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; hostname?: string; ip?: string; id?: string }) {
        return {
          id: request.id,
          method: request.method,
          url: redactUrl(request.url),
          host: request.hostname,
          ip: request.ip,
        };
      },
    },
  };
}
