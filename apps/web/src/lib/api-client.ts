import type { z } from 'zod';
import type { ErrorCode } from '@vexil/core';
import { notifyError, notifyWarning } from './notify';

/** docs/product.md §8 "Generic": the two messages for calls that never got an answer. */
export const CONNECTION_FAILED_MESSAGE = 'We could not contact the server, please try again.';
export const CONNECTION_LOST_MESSAGE = 'We lost the connection, please try again.';

export type FieldError = { field: string; message: string };

/**
 * Every failed call rejects with one of these; `status` is 0 when the server could not be reached.
 * `code` is the error body's machine-readable code (docs/adr/0010-error-model.md): callers decide
 * what to offer by it, never by the wording of `title`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  /** One of core's ERROR_CODES, or undefined when the answer carried none (no answer, a proxy's page). */
  readonly code: string | undefined;
  /** 409 `stale_write` of a targeting save: who saved it since, and when (ISO 8601). */
  readonly changedBy: string | undefined;
  readonly changedAt: string | undefined;
  /**
   * 409 `change_request_required`: the environment whose change requests the change goes through (for
   * a feature's settings, the project's first protected one, which need not be the page's), and the
   * caller's open request there that already changes it, or their newest draft there, when they have one.
   */
  readonly environmentKey: string | undefined;
  readonly changeRequestId: string | undefined;

  constructor(init: {
    status: number;
    title?: string | undefined;
    detail?: string | undefined;
    errors?: FieldError[];
    code?: string | undefined;
    changedBy?: string | undefined;
    changedAt?: string | undefined;
    environmentKey?: string | undefined;
    changeRequestId?: string | undefined;
  }) {
    super(init.title ?? init.detail ?? `The request failed with status ${init.status}.`);
    this.name = 'ApiError';
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.code = init.code;
    this.changedBy = init.changedBy;
    this.changedAt = init.changedAt;
    this.environmentKey = init.environmentKey;
    this.changeRequestId = init.changeRequestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Whether `error` is the server's answer with this code, e.g. `stale_write` or `limit_reached`. */
export function hasErrorCode(error: unknown, code: ErrorCode): error is ApiError {
  return isApiError(error) && error.code === code;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions<T> = {
  method?: Method;
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /**
   * Whether the call is made with the session. A 401 on such a call means the session has ended and
   * sends the browser to /logout. Sign-in calls and the session probe pass false: their 401 is an answer.
   * @default true
   */
  authenticated?: boolean;
  /**
   * Whether the generic toasts of docs/product.md §8 are shown for a failure. Forms that show errors next to their
   * fields pass false; the returned promise rejects with the ApiError either way.
   * @default true
   */
  notifyErrors?: boolean;
  /** Validates (and types) the JSON answer. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
};

export type ApiClientHooks = {
  /** Called once when an authenticated call answers 401, however many calls fail together. */
  onUnauthorised: () => void;
  notifyError: (message: string) => void;
  /** A warning the user dismisses: it does not close by itself. */
  notifyPersistentWarning: (message: string) => void;
};

export type ApiClient = ReturnType<typeof createApiClient>;

function isFieldError(value: unknown): value is FieldError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as FieldError).field === 'string' &&
    typeof (value as FieldError).message === 'string'
  );
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const body = parseJson(await response.text().catch(() => ''));
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const title =
    nonEmptyString(record.title) ??
    nonEmptyString(response.headers.get('X-Error-Message')) ??
    nonEmptyString(response.headers.get('X-Alert'));
  return new ApiError({
    status: response.status,
    title,
    detail: nonEmptyString(record.detail),
    errors: Array.isArray(record.errors) ? record.errors.filter(isFieldError) : [],
    code: nonEmptyString(record.code),
    changedBy: nonEmptyString(record.changedBy),
    changedAt: nonEmptyString(record.changedAt),
    environmentKey: nonEmptyString(record.environmentKey),
    changeRequestId: nonEmptyString(record.changeRequestId),
  });
}

function urlOf(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
}

/** The one HTTP client of the dashboard: JSON in and out, the session cookie, docs/product.md §8's generic rules. */
export function createApiClient(initialHooks: ApiClientHooks) {
  let hooks = initialHooks;
  // docs/product.md §8: one trip to /logout per session, however many calls come back 401 together.
  let unauthorisedHandled = false;

  function fail(error: ApiError, options: { authenticated: boolean; notifyErrors: boolean }): never {
    if (error.status === 401 && options.authenticated) {
      if (!unauthorisedHandled) {
        unauthorisedHandled = true;
        hooks.onUnauthorised();
      }
      throw error;
    }
    if (options.notifyErrors) {
      if (error.status === 0 || error.status === 504) hooks.notifyError(error.message);
      else if ((error.status === 403 || error.status === 500) && error.title) hooks.notifyError(error.title);
      else if (error.status === 400 && error.title) hooks.notifyPersistentWarning(error.title);
    }
    throw error;
  }

  async function request<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
    const {
      method = 'GET',
      body,
      query,
      authenticated = true,
      notifyErrors = true,
      schema,
      signal,
    } = options;
    const rules = { authenticated, notifyErrors };
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await fetch(urlOf(path, query), {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        credentials: 'same-origin',
        signal: signal ?? null,
      });
    } catch (cause) {
      // A cancelled query is not a failure to report.
      if (signal?.aborted || (cause instanceof Error && cause.name === 'AbortError')) throw cause;
      return fail(new ApiError({ status: 0, title: CONNECTION_FAILED_MESSAGE }), rules);
    }

    if (response.status === 504) {
      return fail(new ApiError({ status: 504, title: CONNECTION_LOST_MESSAGE }), rules);
    }
    if (!response.ok) return fail(await errorFromResponse(response), rules);

    const data = response.status === 204 ? undefined : parseJson(await response.text());
    if (!schema) return data as T;
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      console.error(`Unexpected answer from ${method} ${path}`, parsed.error.issues);
      return fail(
        new ApiError({ status: response.status, title: 'The server sent an answer we did not understand.' }),
        {
          authenticated,
          notifyErrors: false,
        },
      );
    }
    return parsed.data;
  }

  return {
    request,
    get: <T = unknown>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'GET' }),
    post: <T = unknown>(
      path: string,
      body?: unknown,
      options: Omit<RequestOptions<T>, 'method' | 'body'> = {},
    ) => request<T>(path, { ...options, method: 'POST', body }),
    put: <T = unknown>(
      path: string,
      body?: unknown,
      options: Omit<RequestOptions<T>, 'method' | 'body'> = {},
    ) => request<T>(path, { ...options, method: 'PUT', body }),
    delete: <T = unknown>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'DELETE' }),
    /** A new session has started (after a sign-in): its end may send the browser to /logout again. */
    sessionStarted() {
      unauthorisedHandled = false;
    },
    configure(overrides: Partial<ApiClientHooks>) {
      hooks = { ...hooks, ...overrides };
    },
  };
}

/** The dashboard's client. The app points `onUnauthorised` at its router once the router exists. */
export const apiClient = createApiClient({
  onUnauthorised: () => window.location.assign('/logout'),
  notifyError: (message) => notifyError(message),
  notifyPersistentWarning: (message) => notifyWarning(message, { persistent: true }),
});
