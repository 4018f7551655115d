import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FEATURE_KEY_PATTERN } from '@vexil/core';
import type { SdkRegistrationCommand } from '../modules/features/sdk-registration';
import { featuresAnswer, sendAnswer } from './answers';
import { answerOf, parseJsonBody, readEvents, sendEventsAnswer } from './events';
import { acceptAnyBody, bearerKey, checkKey, refuse } from './http';
import type { Ingestion } from './ingestion';
import type { EnvironmentSnapshot, SdkStore, SnapshotChange } from './sdk-store';

/** How often an open stream gets a heartbeat, which keeps proxies from closing it. */
export const HEARTBEAT_MS = 25_000;

/**
 * How much a stream may leave unread beyond the payload itself before it is ended: a client that
 * reads slower than changes arrive would otherwise hold the server's memory without bound. The SDK
 * reconnects (`retry: 5000`) and receives the whole map again (docs/sdk-protocol.md §3).
 */
export const SLOW_STREAM_BYTES = 8 * 1024 * 1024;

/** The SSE frames of one change, as every stream of its environment receives them (docs/sdk-protocol.md §3). */
export function changeFrames(change: SnapshotChange): string {
  let frames = '';
  if (change.updated.length > 0) {
    const data = change.updated.map((entry) => `${entry.keyJson}:${entry.json}`).join(',');
    frames += `event: features.updated\ndata: {${data}}\n\n`;
  }
  if (change.deleted.length > 0)
    frames += `event: features.deleted\ndata: ${JSON.stringify(change.deleted)}\n\n`;
  return frames;
}

/**
 * The open SSE streams, by environment. Each environment with streams follows the store once; a
 * change's frames are made once and the same bytes written to every stream. One timer beats for
 * all streams, so ten thousand streams cost no timer each.
 */
function sseStreams(store: SdkStore, heartbeatMs: number, slowStreamBytes: number) {
  type Followed = { streams: Set<ServerResponse>; stop: () => void; payloadBytes: number };
  const byEnvironment = new Map<string, Followed>();
  const ends = new Set<() => void>();
  let heartbeat: NodeJS.Timeout | null = null;

  /** Writes a frame, or ends a stream whose client has left too much unread (SLOW_STREAM_BYTES). */
  function send(followed: Followed, stream: ServerResponse, frame: Buffer) {
    if (stream.writableLength > followed.payloadBytes + slowStreamBytes) {
      stream.destroy();
      return;
    }
    // Corked and uncorked here, so that the socket is written now: a write to an uncorked response
    // corks its socket until the next tick, and a change written to 10,000 streams would keep all
    // their pending chunks until then, long enough for V8 to move them to the old generation.
    stream.cork();
    stream.write(frame);
    stream.uncork();
  }

  function beat() {
    const frame = Buffer.from(`data: {"heartbeat":${Date.now()}}\n\n`);
    for (const followed of byEnvironment.values())
      for (const stream of followed.streams) send(followed, stream, frame);
  }

  return {
    /** Adds a stream whose first frame is written; returns the function that ends it. */
    add(environmentId: string, raw: ServerResponse, payloadBytes: number): () => void {
      let followed = byEnvironment.get(environmentId);
      if (!followed) {
        const streams = new Set<ServerResponse>();
        const stop = store.listen(environmentId, (change) => {
          const current = byEnvironment.get(environmentId)!;
          current.payloadBytes = Math.max(current.payloadBytes, change.snapshot.bytes.length);
          const frames = changeFrames(change);
          if (frames === '') return;
          // Bytes, not the string: a string written to a socket is copied for each stream.
          const bytes = Buffer.from(frames);
          for (const stream of streams) send(current, stream, bytes);
        });
        followed = { streams, stop, payloadBytes };
        byEnvironment.set(environmentId, followed);
      }
      followed.payloadBytes = Math.max(followed.payloadBytes, payloadBytes);
      followed.streams.add(raw);
      const end = () => {
        if (!ends.delete(end)) return;
        const current = byEnvironment.get(environmentId);
        current?.streams.delete(raw);
        if (current?.streams.size === 0) {
          current.stop();
          byEnvironment.delete(environmentId);
        }
        if (ends.size === 0 && heartbeat) {
          clearInterval(heartbeat);
          heartbeat = null;
        }
        if (!raw.writableEnded) raw.end();
      };
      ends.add(end);
      heartbeat ??= setInterval(beat, heartbeatMs);
      return end;
    },

    endAll() {
      for (const end of [...ends]) end();
    },
  };
}

const registerBody = z
  .array(
    z
      .object({
        key: z
          .string()
          .regex(FEATURE_KEY_PATTERN, 'Feature keys are lowercase letters, digits and dashes.')
          .max(100),
        failoverVariant: z.string().max(100).nullish(),
        variants: z
          .array(
            z
              .object({
                key: z.string().max(100),
                name: z.string().max(200).nullish(),
                value: z.unknown().optional(),
              })
              .loose(),
          )
          .max(50)
          .nullish(),
      })
      .loose(),
  )
  .max(1000);

function badRequest(reply: FastifyReply, title: string, errors: { field: string; message: string }[] = []) {
  return reply.code(400).type('application/json').send({ title, errors });
}

function zodErrors(error: z.ZodError) {
  return error.issues.slice(0, 20).map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

/**
 * The Featureflow server SDK protocol (docs/sdk-protocol.md §2–§5): the features map with ETags, its SSE
 * form, events and registration, all authenticated by the environment's server key.
 */
export function featureflowRoutes(deps: {
  store: SdkStore;
  ingestion: Ingestion;
  register: SdkRegistrationCommand;
  now: () => Date;
  heartbeatMs?: number;
  /** Tests make slow streams end sooner. */
  slowStreamBytes?: number;
}): FastifyPluginAsync {
  const { store, ingestion, register, now } = deps;
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  return async (app) => {
    acceptAnyBody(app);
    const streams = sseStreams(store, heartbeatMs, deps.slowStreamBytes ?? SLOW_STREAM_BYTES);
    app.addHook('onClose', async () => streams.endAll());

    function stream(request: FastifyRequest, reply: FastifyReply, snapshot: EnvironmentSnapshot) {
      reply.hijack();
      // The latest payload: the key check may have waited for a rebuild that installed a newer one.
      const current = store.get(snapshot.keys.environmentId) ?? snapshot;
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      // The full map at once, and after every reconnect: Java's start() waits for it (docs/sdk-protocol.md §3).
      // Written as the payload's shared bytes between two small strings, not copied into a string of
      // its own for each stream.
      raw.cork();
      raw.write('retry: 5000\nevent: features.updated\ndata: ');
      raw.write(current.bytes);
      raw.write('\n\n');
      process.nextTick(() => raw.uncork());
      // In the same tick as the payload was read: no change can fall between the two.
      const end = streams.add(current.keys.environmentId, raw, current.bytes.length);
      request.raw.on('close', end);
    }

    // The answer is answers.ts's, which the fast path (fast-path.ts) writes too; the stream is here only.
    app.get('/api/sdk/v1/features', { schema: { hide: true } }, async (request, reply) => {
      const check = await checkKey(store, bearerKey(request), 'server');
      if (check.ok && String(request.headers.accept ?? '').includes('text/event-stream'))
        return stream(request, reply, check.snapshot);
      return sendAnswer(reply, featuresAnswer(check, request.headers));
    });

    app.post('/api/sdk/v1/events', { schema: { hide: true } }, async (request, reply) => {
      const check = await checkKey(store, bearerKey(request), 'server');
      if (!check.ok) return refuse(reply, check);
      const read = readEvents(request.body);
      if (!read.ok) return sendEventsAnswer(reply, read.answer);
      // Answered once stored (docs/adr/0008-event-ingestion-group-commit.md).
      return sendEventsAnswer(reply, answerOf(await ingestion.record(check.snapshot, read.events, now())));
    });

    app.put('/api/sdk/v1/register', { schema: { hide: true } }, async (request, reply) => {
      const check = await checkKey(store, bearerKey(request), 'server');
      if (!check.ok) return refuse(reply, check);
      const json = parseJsonBody(request.body);
      if (!json.ok) return badRequest(reply, json.message);
      const parsed = registerBody.safeParse(json.value);
      if (!parsed.success)
        return badRequest(reply, 'The features to register are not valid.', zodErrors(parsed.error));
      const { refused } = await register(check.snapshot.keys, parsed.data);
      // Exactly 200 even when features were not created (the environment does not let SDKs create
      // them, as production by default, or the plan's limit is reached): the key is valid, nothing
      // reads the body, and Java only logs any other status as a failure at every start
      // (docs/adr/0006-server-keys-and-sdk-registration.md). The features then simply are not there; say so at debug level.
      if (refused.length > 0) {
        request.log.debug(
          { environmentId: check.snapshot.keys.environmentId, notCreated: refused.length },
          'SDK registration did not create features',
        );
      }
      return reply.code(200).send();
    });
  };
}
