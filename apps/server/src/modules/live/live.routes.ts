import type { FastifyInstance } from 'fastify';
import type { LiveMessage } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { LiveHub } from './live.hub';

/** How often an idle connection is pinged; one that missed the previous pong is closed. */
const PING_MS = 30_000;

/**
 * GET /api/v1/live: the dashboard's WebSocket (docs/product.md "Live updates"). Authenticated like
 * every dashboard call (the session cookie, same origin only), scoped to the member's organisation;
 * it only sends: `{"type":"change","change":{…}}` when someone changes a feature or an experiment, or
 * an SDK first evaluates a feature. Messages from the browser are ignored. It closes with 4401 when
 * its session ends (sign-out, "Sign out everywhere", removal, expiry) and 4403 when the member may no
 * longer read.
 */
export function registerLiveRoutes(app: FastifyInstance, deps: { hub: LiveHub }) {
  const { hub } = deps;
  app.get(
    '/api/v1/live',
    {
      websocket: true,
      // A dashboard's: its session is checked again while it is open (live.hub.ts), which an access
      // token, not a session, could not be.
      config: { sessionOnly: true },
      schema: {
        tags: ['account'],
        summary:
          'WebSocket of live changes in the organisation (features toggled, targeted, edited, created or deleted; experiments; features first seen by an SDK)',
        hide: true,
      },
    },
    (socket, request) => {
      const principal = principalOf(request);
      let alive = true;
      const leave = hub.join({
        organisationId: principal.organisationId,
        userId: principal.userId,
        sessionId: principal.sessionId,
        authorities: principal.authorities,
        send: (message) => {
          if (socket.readyState === socket.OPEN) socket.send(message);
        },
        close: (code, reason) => socket.close(code, reason),
      });
      const ping = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, PING_MS);
      ping.unref();
      socket.on('pong', () => {
        alive = true;
      });
      socket.on('close', () => {
        clearInterval(ping);
        leave();
      });
      socket.send(JSON.stringify({ type: 'hello' } satisfies LiveMessage));
    },
  );
}
