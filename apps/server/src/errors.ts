/** One error vocabulary for services; the error handler maps these to HTTP. */
export type FieldError = { field: string; message: string };

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
  ) {
    super(title);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(title: string, errors?: FieldError[], detail?: string) {
    super(400, title, detail, errors);
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
  constructor(title = 'You do not have permission to do this') {
    super(403, title);
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

export class TooManyRequestsError extends AppError {
  constructor(
    title = 'Too many attempts, please try again later.',
    /** Sent as `Retry-After` when known. */
    readonly retryAfterSeconds?: number,
  ) {
    super(429, title);
  }
}
