/**
 * Machine-readable error codes: every error body of the dashboard API carries one beside its
 * human `title`, so the dashboard decides what to do (offer an upgrade, a reload, production
 * rights) without reading prose. See docs/adr/0010-error-model.md.
 */
export const ERROR_CODES = [
  /** 400: the request breaks a rule; `errors[]` names the fields. */
  'invalid',
  /** 400: the plan's limit (features, projects, environments…) is reached. */
  'limit_reached',
  /** 401: no valid session or token. */
  'unauthenticated',
  /** 403: the principal's role does not allow this. */
  'forbidden',
  /** 403: allowed outside production; a production environment needs a production editor. */
  'production_rights_required',
  /** 403: the plan does not include this (the audit log, experiments). */
  'plan_required',
  /**
   * 403: the subscription is inactive (the trial ended without a purchase, or the payment provider
   * ended it): nothing may change until a plan is bought, while SDKs keep evaluating.
   */
  'subscription_inactive',
  /** 400: the payment provider refused the change of plan; `detail` says why. */
  'subscription_change_refused',
  /** 404: no such resource in this organisation. */
  'not_found',
  /** 409: the change conflicts with the stored state (a key taken meanwhile…). */
  'conflict',
  /** 409: the record changed since the version this write was based on. */
  'stale_write',
  /**
   * 409: the environment asks for a change request (docs/adr/0024-change-requests.md): the write was
   * not made; `changeRequestId` names the writer's open draft there, when they have one.
   */
  'change_request_required',
  /** 409: the version to restore is what the resource already is. */
  'nothing_to_restore',
  /** 429: too many requests or attempts; `Retry-After` says when to try again. */
  'rate_limited',
  /** 503: a dependency (the database) is unavailable; retry after `Retry-After`. */
  'unavailable',
  /** 503: the payment provider could not be reached or answered an error. */
  'billing_unavailable',
  /** 500: a fault on the server's side. */
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code an error status carries when nothing more specific applies. */
export function defaultErrorCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'invalid';
  }
}
