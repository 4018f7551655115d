import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  CONNECTION_FAILED_MESSAGE,
  CONNECTION_LOST_MESSAGE,
  createApiClient,
  hasErrorCode,
  type ApiClientHooks,
} from './api-client';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function setup() {
  const fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  const hooks = {
    onUnauthorised: vi.fn<ApiClientHooks['onUnauthorised']>(),
    notifyError: vi.fn<ApiClientHooks['notifyError']>(),
    notifyPersistentWarning: vi.fn<ApiClientHooks['notifyPersistentWarning']>(),
  };
  return { fetchMock, hooks, client: createApiClient(hooks) };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  describe('requests', () => {
    it('sends JSON with the same-origin session cookie and returns the JSON answer', async () => {
      env.fetchMock.mockResolvedValue(json(200, { id: 'p1' }));
      const answer = await env.client.post('/api/v1/projects/', { name: 'Web' });
      expect(answer).toEqual({ id: 'p1' });
      const [url, init] = env.fetchMock.mock.calls[0]!;
      expect(url).toBe('/api/v1/projects/');
      expect(init?.method).toBe('POST');
      expect(init?.credentials).toBe('same-origin');
      expect(init?.body).toBe(JSON.stringify({ name: 'Web' }));
      expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
      expect((init?.headers as Record<string, string>).Accept).toBe('application/json');
    });

    it('adds query parameters, leaving out absent ones', async () => {
      env.fetchMock.mockResolvedValue(json(200, []));
      await env.client.get('/api/v1/features', { query: { filter: 'a b', page: 2, missing: undefined } });
      expect(env.fetchMock.mock.calls[0]![0]).toBe('/api/v1/features?filter=a+b&page=2');
    });

    it('resolves to undefined for 204 No Content', async () => {
      env.fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
      await expect(env.client.post('/api/logout')).resolves.toBeUndefined();
    });

    it('validates the answer against a schema when one is given', async () => {
      env.fetchMock.mockResolvedValue(json(200, { name: 42 }));
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const error = await rejection(
        env.client.get('/api/v1/thing', { schema: z.object({ name: z.string() }) }),
      );
      expect(error.status).toBe(200);
    });
  });

  describe('failures become ApiError {status, title, detail, errors, code}', () => {
    it('takes title, detail, field errors and code from the JSON body', async () => {
      env.fetchMock.mockResolvedValue(
        json(409, {
          title: 'Key taken',
          detail: 'Pick another',
          errors: [{ field: 'key', message: 'Key taken' }],
          code: 'conflict',
        }),
      );
      const error = await rejection(env.client.put('/api/v1/projects/', {}));
      expect(error.status).toBe(409);
      expect(error.title).toBe('Key taken');
      expect(error.detail).toBe('Pick another');
      expect(error.errors).toEqual([{ field: 'key', message: 'Key taken' }]);
      expect(error.code).toBe('conflict');
      expect(error.message).toBe('Key taken');
      expect(hasErrorCode(error, 'conflict')).toBe(true);
      expect(hasErrorCode(error, 'stale_write')).toBe(false);
    });

    it('names the environment and the request of a change_request_required refusal', async () => {
      env.fetchMock.mockResolvedValue(
        json(409, {
          title: 'Changes to Production go through change requests: add this change to one.',
          code: 'change_request_required',
          environmentKey: 'production',
          changeRequestId: '00000000-0000-4000-9000-000000000009',
        }),
      );
      const error = await rejection(env.client.put('/api/v1/projects/web/features', {}));
      expect(hasErrorCode(error, 'change_request_required')).toBe(true);
      expect(error.environmentKey).toBe('production');
      expect(error.changeRequestId).toBe('00000000-0000-4000-9000-000000000009');
    });

    it('falls back to the X-Error-Message header', async () => {
      env.fetchMock.mockResolvedValue(
        new Response('oops', { status: 404, headers: { 'X-Error-Message': 'No such feature' } }),
      );
      const error = await rejection(env.client.get('/api/v1/features/x'));
      expect(error.title).toBe('No such feature');
    });

    it('falls back to the X-Alert header', async () => {
      env.fetchMock.mockResolvedValue(
        new Response(null, { status: 404, headers: { 'X-Alert': 'Gone away' } }),
      );
      const error = await rejection(env.client.get('/api/v1/features/x'));
      expect(error.title).toBe('Gone away');
    });

    it('prefers the body title to the headers', async () => {
      env.fetchMock.mockResolvedValue(
        json(404, { title: 'From body' }, { 'X-Error-Message': 'From header' }),
      );
      expect((await rejection(env.client.get('/x'))).title).toBe('From body');
    });

    it('has no title when the server gave none', async () => {
      env.fetchMock.mockResolvedValue(new Response('<html>', { status: 404 }));
      const error = await rejection(env.client.get('/x'));
      expect(error.title).toBeUndefined();
      expect(error.errors).toEqual([]);
      expect(error.code).toBeUndefined();
    });
  });

  describe('401 on an authenticated call', () => {
    it('goes to /logout', async () => {
      env.fetchMock.mockResolvedValue(json(401, { title: 'Session expired' }));
      const error = await rejection(env.client.get('/api/v1/projects'));
      expect(error.status).toBe(401);
      expect(env.hooks.onUnauthorised).toHaveBeenCalledTimes(1);
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
    });

    it('goes to /logout once for a burst of failing calls', async () => {
      env.fetchMock.mockImplementation(async () => json(401, {}));
      await Promise.allSettled([env.client.get('/a'), env.client.get('/b'), env.client.get('/c')]);
      await Promise.allSettled([env.client.get('/d')]);
      expect(env.hooks.onUnauthorised).toHaveBeenCalledTimes(1);
    });

    it('goes again once a new session has started', async () => {
      env.fetchMock.mockImplementation(async () => json(401, {}));
      await Promise.allSettled([env.client.get('/a')]);
      env.client.sessionStarted();
      await Promise.allSettled([env.client.get('/b')]);
      expect(env.hooks.onUnauthorised).toHaveBeenCalledTimes(2);
    });

    it('does not go to /logout for the sign-in calls', async () => {
      env.fetchMock.mockResolvedValue(
        json(401, { title: 'The email and password combination you have provided is invalid.' }),
      );
      const error = await rejection(
        env.client.post('/api/authenticate', {}, { authenticated: false, notifyErrors: false }),
      );
      expect(error.title).toBe('The email and password combination you have provided is invalid.');
      expect(env.hooks.onUnauthorised).not.toHaveBeenCalled();
    });
  });

  describe('generic toasts', () => {
    it.each([403, 500])('shows the title of a %i as an error toast', async (status) => {
      env.fetchMock.mockResolvedValue(json(status, { title: 'Not allowed here' }));
      await rejection(env.client.get('/x'));
      expect(env.hooks.notifyError).toHaveBeenCalledWith('Not allowed here');
      expect(env.hooks.notifyPersistentWarning).not.toHaveBeenCalled();
    });

    it.each([403, 500])('shows no toast for a %i without a title', async (status) => {
      env.fetchMock.mockResolvedValue(new Response(null, { status }));
      await rejection(env.client.get('/x'));
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
    });

    it('shows the title of a 400 as a persistent warning', async () => {
      env.fetchMock.mockResolvedValue(json(400, { title: 'Invalid request', errors: [] }));
      await rejection(env.client.post('/x', {}));
      expect(env.hooks.notifyPersistentWarning).toHaveBeenCalledWith('Invalid request');
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
    });

    it('says the server could not be contacted when fetch fails', async () => {
      env.fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
      const error = await rejection(env.client.get('/x'));
      expect(error.status).toBe(0);
      expect(error.title).toBe(CONNECTION_FAILED_MESSAGE);
      expect(env.hooks.notifyError).toHaveBeenCalledWith(
        'We could not contact the server, please try again.',
      );
    });

    it('says the connection was lost on a 504', async () => {
      env.fetchMock.mockResolvedValue(new Response('Gateway Timeout', { status: 504 }));
      const error = await rejection(env.client.get('/x'));
      expect(error.status).toBe(504);
      expect(error.title).toBe(CONNECTION_LOST_MESSAGE);
      expect(env.hooks.notifyError).toHaveBeenCalledWith('We lost the connection, please try again.');
    });

    it('shows no toast for other statuses', async () => {
      env.fetchMock.mockResolvedValue(json(404, { title: 'Not found' }));
      await rejection(env.client.get('/x'));
      env.fetchMock.mockResolvedValue(json(429, { title: 'Slow down' }));
      await rejection(env.client.get('/x'));
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
      expect(env.hooks.notifyPersistentWarning).not.toHaveBeenCalled();
    });

    it('lets a caller opt out of the toasts and still rejects', async () => {
      env.fetchMock.mockResolvedValueOnce(json(400, { title: 'Bad' }));
      env.fetchMock.mockResolvedValueOnce(json(500, { title: 'Broken' }));
      env.fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      env.fetchMock.mockResolvedValueOnce(new Response(null, { status: 504 }));
      for (let i = 0; i < 4; i += 1) await rejection(env.client.get('/x', { notifyErrors: false }));
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
      expect(env.hooks.notifyPersistentWarning).not.toHaveBeenCalled();
    });

    it('stays silent when the caller aborts', async () => {
      const controller = new AbortController();
      env.fetchMock.mockImplementation(async () => {
        controller.abort();
        throw new DOMException('The operation was aborted.', 'AbortError');
      });
      await expect(env.client.get('/x', { signal: controller.signal })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(env.hooks.notifyError).not.toHaveBeenCalled();
    });
  });
});
