import type { FastifyServerOptions } from 'fastify';

const SECRET_IN_URL = [
  [/\/login\/[^/?#]+/gi, '/login/[redacted]'],
  [/sdk-(srv|js)-env-[0-9a-f]+/gi, 'sdk-$1-env-[redacted]'],
  // `code` and `state`: an identity provider's answer to single sign-on (modules/sso).
  [/([?&](token|key|activationKey|password|code|state)=)[^&#]*/gi, '$1[redacted]'],
  [/\/invitee\/[^/?#]+/gi, '/invitee/[redacted]'],
  [/\/invited\/[^/?#]+/gi, '/invited/[redacted]'],
] as const;

/** Decodes printable ASCII escapes (`%73dk-` is `sdk-`), the only ones the secrets' patterns can contain. */
function decodeAsciiEscapes(text: string): string {
  return text.replace(/%([2-7][0-9a-f])/gi, (escape, hex: string) => {
    const code = parseInt(hex, 16);
    return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : escape;
  });
}

/**
 * Removes secrets that can travel in a URL (one-time tokens, SDK keys, reset keys) before logging,
 * however they were percent-encoded: the router decodes them, so the log must see them decoded too.
 */
export function redactUrl(url: string): string {
  let decoded = url;
  // Escapes of escapes (`%2573`) unwrap one level per pass; a few passes cover any sane URL.
  for (let pass = 0; pass < 4; pass++) {
    const next = decodeAsciiEscapes(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return SECRET_IN_URL.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), decoded);
}

type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

const PARAMS = '\nparams: ';

/** Drizzle's "Failed query: <sql>\nparams: <values>" lists every value: e-mails, user attributes, token hashes. */
function withoutParams(message: string): string {
  const at = message.indexOf(PARAMS);
  return at === -1 ? message : `${message.slice(0, at)}${PARAMS}[redacted]`;
}

function stackWithoutParams(stack: string, message: string): string {
  if (!stack.includes(PARAMS)) return stack;
  if (message.includes(PARAMS) && stack.includes(message))
    return stack.split(message).join(withoutParams(message));
  return stack.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `${PARAMS}[redacted]`);
}

/**
 * Errors as pino would log them (type, message, stack, own fields, cause chain), less what may hold
 * personal data: query parameters, and PostgreSQL's `detail`, which quotes row values ("Key
 * (email)=(…)"). Only plain fields are kept, never objects such as a connection.
 */
export function serializeError(error: Error, depth = 0): SerializedError {
  // Pino hands over whatever was logged as `err`.
  if (!(error instanceof Error)) return error as unknown as SerializedError;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'params' || (key === 'detail' && 'severity' in error)) continue;
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  const nested = (value: unknown) => (value instanceof Error ? serializeError(value, depth + 1) : value);
  return {
    type: error.constructor.name || error.name,
    message: withoutParams(error.message),
    stack: error.stack ? stackWithoutParams(error.stack, error.message) : '',
    ...fields,
    ...(depth < 5 && error.cause !== undefined ? { cause: nested(error.cause) } : {}),
    ...(depth < 5 && error instanceof AggregateError
      ? { aggregateErrors: (error.errors as unknown[]).map(nested) }
      : {}),
  };
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
      err: serializeError,
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
