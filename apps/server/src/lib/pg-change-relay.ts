import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { databaseTimeouts, postgresClientConfig, ResilientClient, type DatabaseTimeouts } from '../db/client';
import type { ChangeEvent, ChangeEvents } from './change-events';

export const CHANNEL = 'vexil_changes';
const RECONNECT_MS = 1_000;
const HEARTBEAT_MS = 30_000;
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
const NOTIFY_PAYLOAD_LIMIT = 8_000;

/**
 * The NOTIFY payload of a local event. An event is a few hundred bytes; a change of many features
 * (an SDK registering hundreds) would pass the limit with its list of ids: it goes without the list,
 * which makes the other instances rebuild the environment's whole payload rather than patch it.
 */
export function notificationPayload(origin: string, event: ChangeEvent): string {
  const payload = JSON.stringify({ origin, event: { ...event, remote: undefined, notified: undefined } });
  if (Buffer.byteLength(payload) < NOTIFY_PAYLOAD_LIMIT || event.type !== 'environment.changed')
    return payload;
  return JSON.stringify({
    origin,
    event: { ...event, featureIds: undefined, remote: undefined, notified: undefined },
  });
}

/**
 * Another instance's event as this one publishes it. A list of feature ids that is not one (an
 * instance of another version) is dropped: the environment is rebuilt whole.
 */
export function receivedEvent(event: ChangeEvent): ChangeEvent {
  if (event.type !== 'environment.changed' || event.featureIds === undefined)
    return { ...event, remote: true };
  const ids: unknown = event.featureIds;
  if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) return { ...event, remote: true };
  const { featureIds: _dropped, ...rest } = event;
  return { ...rest, remote: true };
}

/**
 * Carries change events between server instances sharing one PostgreSQL (docs/architecture.md "Scale"):
 * local events are sent with NOTIFY, other instances' arrive by LISTEN and are published locally.
 * Events passed through `events.within` are sent in their change's transaction, by the connection
 * that commits it (so they cannot be lost between the commit and the send); the others are sent
 * after they are published, from a pool of the relay's own. After a lost connection, `onResync`
 * runs, since notifications sent meanwhile are gone.
 */
export function startPgChangeRelay(deps: {
  url: string;
  events: ChangeEvents;
  logger: FastifyBaseLogger;
  onResync: () => Promise<void>;
  /** Defaults: DEFAULT_DATABASE_TIMEOUTS and HEARTBEAT_MS; tests pass short ones. */
  timeouts?: Partial<DatabaseTimeouts>;
  heartbeatMs?: number;
}) {
  const { url, events, logger, onResync } = deps;
  const config = postgresClientConfig(url, databaseTimeouts(deps.timeouts));
  const instance = randomUUID();
  let listener: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | undefined;
  let stopped = false;
  const sender = new pg.Pool({ ...config, max: 2, Client: ResilientClient });
  sender.on('error', (error) => logger.warn({ err: error }, 'Change relay sender connection failed'));

  // One reconnection at a time: a lost connection reports itself more than once (the server's
  // message, then the closed socket), and each report must not start a listener of its own.
  function reconnectLater() {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect(true);
    }, RECONNECT_MS);
    retry.unref();
  }

  async function connect(resync: boolean): Promise<void> {
    if (stopped) return;
    const client = new ResilientClient(config);
    let lost = false;
    const onLost = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (listener === client) {
        listener = null;
        clearInterval(heartbeat);
      }
      logger.warn({ err: error }, 'Change relay connection lost; reconnecting');
      void client.end().catch(() => {});
      reconnectLater();
    };
    client.on('error', onLost);
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const { origin, event } = JSON.parse(message.payload) as { origin: string; event: ChangeEvent };
        if (origin === instance) return;
        events.publish(receivedEvent(event));
      } catch (error) {
        logger.warn({ err: error }, 'Ignored an unreadable change notification');
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost) return;
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    // A LISTEN connection sends nothing by itself: without a question now and then, a cut network
    // would go unnoticed (and notifications missed) until TCP gives up, many minutes later.
    // One question at a time: while one waits for its answer (or its timeout, which reports the
    // connection lost), the next beat is skipped rather than queued behind it.
    let asking = false;
    heartbeat = setInterval(() => {
      if (asking) return;
      asking = true;
      void client
        .query('select 1')
        .catch(onLost)
        .finally(() => {
          asking = false;
        });
    }, deps.heartbeatMs ?? HEARTBEAT_MS);
    heartbeat.unref();
    if (resync)
      await onResync().catch((error: unknown) =>
        logger.error({ err: error }, 'Resync after reconnect failed'),
      );
  }

  events.notifyWithin(async (executor, list) => {
    const notices = list.map((event) => sql`pg_notify(${CHANNEL}, ${notificationPayload(instance, event)})`);
    await executor.execute(sql`select ${sql.join(notices, sql`, `)}`);
  });
  const unsubscribe = events.subscribe((event) => {
    if (event.remote || event.notified || stopped) return;
    const payload = notificationPayload(instance, event);
    sender.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((error: unknown) => {
      logger.warn({ err: error }, 'Could not send a change notification');
    });
  });

  return {
    ready: connect(false),
    async stop(): Promise<void> {
      stopped = true;
      events.notifyWithin(null);
      unsubscribe();
      if (retry) clearTimeout(retry);
      clearInterval(heartbeat);
      await listener?.end().catch(() => {});
      await sender.end().catch(() => {});
    },
  };
}
