import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { ChangeEvent, ChangeEvents } from './change-events';

export const CHANNEL = 'vexil_changes';
const RECONNECT_MS = 1_000;

/**
 * Carries change events between server instances sharing one PostgreSQL (architecture "Scale"):
 * local events are sent with NOTIFY, other instances' arrive by LISTEN and are published locally.
 * After a lost connection, `onResync` runs, since notifications sent meanwhile are gone.
 */
export function startPgChangeRelay(deps: {
  url: string;
  events: ChangeEvents;
  logger: FastifyBaseLogger;
  onResync: () => Promise<void>;
}) {
  const { url, events, logger, onResync } = deps;
  const instance = randomUUID();
  let listener: pg.Client | null = null;
  let stopped = false;
  const sender = new pg.Pool({ connectionString: url, max: 2 });
  sender.on('error', (error) => logger.warn({ err: error }, 'Change relay sender connection failed'));

  async function connect(resync: boolean): Promise<void> {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const { origin, event } = JSON.parse(message.payload) as { origin: string; event: ChangeEvent };
        if (origin === instance) return;
        events.publish({
          type: event.type,
          organisationId: event.organisationId,
          environmentId: event.environmentId,
          remote: true,
        });
      } catch (error) {
        logger.warn({ err: error }, 'Ignored an unreadable change notification');
      }
    });
    client.on('error', (error) => {
      logger.warn({ err: error }, 'Change relay connection lost; reconnecting');
      void client.end().catch(() => {});
      if (listener === client) listener = null;
      setTimeout(() => void connect(true).catch(() => {}), RECONNECT_MS).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      logger.warn({ err: error }, 'Change relay could not connect; retrying');
      void client.end().catch(() => {});
      setTimeout(() => void connect(true).catch(() => {}), RECONNECT_MS).unref();
      return;
    }
    listener = client;
    if (resync)
      await onResync().catch((error: unknown) =>
        logger.error({ err: error }, 'Resync after reconnect failed'),
      );
  }

  const unsubscribe = events.subscribe((event) => {
    if (event.remote || stopped) return;
    const payload = JSON.stringify({
      origin: instance,
      event: { type: event.type, organisationId: event.organisationId, environmentId: event.environmentId },
    });
    sender.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((error: unknown) => {
      logger.warn({ err: error }, 'Could not send a change notification');
    });
  });

  return {
    ready: connect(false),
    async stop(): Promise<void> {
      stopped = true;
      unsubscribe();
      await listener?.end().catch(() => {});
      await sender.end().catch(() => {});
    },
  };
}
