import { randomBytes } from 'node:crypto';

/** Any object the fake stores and answers: Stripe's JSON shape, with its id and type. */
export type StripeObject = Record<string, unknown> & { id: string; object: string };
/** A request's parameters, read from Stripe's bracket notation. */
export type Params = Record<string, unknown>;

export class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string; decline_code?: string },
  ) {
    super(body.message);
  }
}

export function missing(kind: string, id: string, param?: string): StripeHttpError {
  return new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });
}

export function invalid(message: string, param?: string): StripeHttpError {
  return new StripeHttpError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
  });
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/**
 * Stripe's bracket notation (`a[b][0][c]=v`, `expand[]=x`) into nested objects and arrays, as the
 * API reads request bodies and query strings.
 */
export function parseStripeParams(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const parts = key.split('[').map((part, i) => (i === 0 ? part : part.replace(/]$/, '')));
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const slot = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[slot] = value;
      else node = (node[slot] ??= {}) as Record<string, unknown>;
    });
  }
  return arrays(root) as Params;
}

/** Objects whose keys are 0..n-1 become arrays. */
function arrays(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, arrays(v)] as const);
  const numeric = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (numeric) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function int(value: unknown): number | undefined {
  return typeof value === 'string' && value !== '' ? Number.parseInt(value, 10) : undefined;
}

export function bool(value: unknown): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

export function metadataOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === 'string' && v !== ''),
  ) as Record<string, string>;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}
