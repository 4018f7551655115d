import {
  DENIAL_MESSAGES,
  defaultErrorCode,
  denialOf,
  type Action,
  type Denial,
  type ErrorCode,
  type Principal,
  type Resource,
} from '@vexil/core';

/** One error vocabulary for services; the error handler maps these to HTTP. */
export type FieldError = { field: string; message: string };

export class AppError extends Error {
  /** The machine-readable code of the answer (core's ERROR_CODES). */
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    code?: ErrorCode,
  ) {
    super(title);
    this.name = new.target.name;
    this.code = code ?? defaultErrorCode(status);
  }
}

export class BadRequestError extends AppError {
  constructor(title: string, errors?: FieldError[], detail?: string, code?: ErrorCode) {
    super(400, title, detail, errors, code);
  }
}

/** A plan limit reached: 400 with code `limit_reached`, which the dashboard answers with an upgrade link. */
export class LimitReachedError extends BadRequestError {
  constructor(title: string) {
    super(title, undefined, undefined, 'limit_reached');
  }
}

/** A rule broken by one field: a 400 that the form can show next to the field. */
export class ValidationError extends BadRequestError {
  constructor(field: string, message: string) {
    super(message, [{ field, message }]);
  }
}

export class UnauthorizedError extends AppError {
  constructor(title = 'Authentication required') {
    super(401, title);
  }
}

export class ForbiddenError extends AppError {
  constructor(title: string = DENIAL_MESSAGES.generic, code: ErrorCode = 'forbidden') {
    super(403, title, undefined, undefined, code);
  }

  /** The refusal core's `denialOf` worded. */
  static of(denial: Denial): ForbiddenError {
    return new ForbiddenError(denial.message, denial.code);
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, id?: string) {
    super(404, 'Not found', id === undefined ? `No such ${resource}` : `No ${resource} "${id}"`);
  }
}

export class ConflictError extends AppError {
  constructor(title: string, field?: string) {
    super(409, title, undefined, field ? [{ field, message: title }] : undefined);
  }
}

/**
 * The record changed since the version the write was based on: 409 `stale_write`, nothing changed.
 * With `changed`, the body also says who changed it and when (`changedBy`, `changedAt`).
 */
export class StaleWriteError extends AppError {
  constructor(
    title: string,
    readonly changed?: { by: string; at: Date },
  ) {
    super(409, title, undefined, undefined, 'stale_write');
  }
}

/**
 * The environment asks for a change request (docs/adr/0024-change-requests.md): 409
 * `change_request_required`, nothing changed; the body names the writer's open draft there, if any.
 */
export class ChangeRequestRequiredError extends AppError {
  constructor(
    title: string,
    /** The environment whose change requests the change goes through. */
    readonly environmentKey: string,
    readonly changeRequestId: string | null,
  ) {
    super(409, title, undefined, undefined, 'change_request_required');
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    title = 'Too many attempts, please try again later.',
    /** Sent as `Retry-After` when known. */
    readonly retryAfterSeconds?: number,
  ) {
    super(429, title);
  }
}

/** Refuses with core's wording (403, `forbidden` or `production_rights_required`) what `principal` may not do. */
export function assertAllowed(principal: Principal, action: Action, resource: Resource): void {
  const denial = denialOf(principal, action, resource);
  if (denial) throw ForbiddenError.of(denial);
}
