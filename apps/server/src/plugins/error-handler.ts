import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { defaultErrorCode } from '@vexil/core';
import { isDatabaseUnavailable, isStorageUnwritable } from '../db/errors';
import {
  AppError,
  ChangeRequestRequiredError,
  StaleWriteError,
  TooManyRequestsError,
  type FieldError,
} from '../errors';

/** Seconds a client should wait before retrying a request the database could not serve. */
const DATABASE_RETRY_AFTER_SECONDS = 5;
/** …and one it could not store: freeing space takes an operator. */
const STORAGE_RETRY_AFTER_SECONDS = 30;
export const STORAGE_UNWRITABLE_TITLE =
  'The database cannot store changes right now: its disk is full or it is read-only. Please retry later.';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests, please try again later.',
};

function fieldOf(path: readonly PropertyKey[], location: string | undefined): string {
  const joined = path.map(String).join('.');
  if (location && location !== 'body') return joined ? `${location}.${joined}` : location;
  return joined || '(body)';
}

/** One error handler: the only place errors become HTTP; 5xx causes go to the log, never to the client. */
export function registerErrorHandler(
  app: FastifyInstance,
  hooks: {
    /** A write failed because the database cannot store anything (readiness turns 503). */
    storageFailed?: () => void;
  } = {},
) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      if (error instanceof TooManyRequestsError && error.retryAfterSeconds)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.status).send({
        title: error.title,
        ...(error.detail ? { detail: error.detail } : {}),
        ...(error.errors ? { errors: error.errors } : {}),
        code: error.code,
        ...(error instanceof StaleWriteError && error.changed
          ? { changedBy: error.changed.by, changedAt: error.changed.at.toISOString() }
          : {}),
        ...(error instanceof ChangeRequestRequiredError
          ? {
              environmentKey: error.environmentKey,
              ...(error.changeRequestId ? { changeRequestId: error.changeRequestId } : {}),
            }
          : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const location = (error as FastifyError).validationContext;
      const errors: FieldError[] = error.validation.map((issue) => ({
        field: fieldOf(issue.instancePath.split('/').filter(Boolean), location),
        message: issue.message ?? 'Invalid value',
      }));
      const first = errors[0];
      return reply.code(400).send({
        title: first ? first.message : 'The request is not valid',
        detail: `The ${location ?? 'request'} is not valid.`,
        errors,
        code: 'invalid',
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply
        .code(500)
        .send({ title: 'Something went wrong on our side. Please try again.', code: 'internal' });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large, __proto__ keys…
      return reply.code(status).send({
        title: TITLES[status] ?? 'Bad request',
        detail: error.message,
        code: defaultErrorCode(status),
      });
    }
    if (isDatabaseUnavailable(error)) {
      // Lost or timed-out connections: the request was fine and may succeed when retried.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ title: 'The database is unavailable, please retry.', code: 'unavailable' });
    }
    if (isStorageUnwritable(error)) {
      // The request was fine; the database's disk is full or it only reads (docs/adr/0007).
      request.log.error({ err: error }, 'the database cannot write');
      hooks.storageFailed?.();
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send({ title: STORAGE_UNWRITABLE_TITLE, code: 'unavailable' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply
      .code(500)
      .send({ title: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });
}
