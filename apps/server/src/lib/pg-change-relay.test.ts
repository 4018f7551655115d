import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from './change-events';
import { notificationPayload, receivedEvent } from './pg-change-relay';

/**
 * What the relay sends and what it makes of what it receives; the relay itself, on a real
 * PostgreSQL, is tested in test/pg-change-relay.pg.test.ts and test/multi-instance.pg.test.ts.
 */
describe('change notifications', () => {
  const changed = (featureIds?: string[]): ChangeEvent => ({
    type: 'environment.changed',
    organisationId: randomUUID(),
    environmentId: randomUUID(),
    ...(featureIds ? { featureIds } : {}),
  });

  it('carries the changed features, and drops a list that would pass NOTIFY’s 8,000 bytes', () => {
    const few = changed([randomUUID(), randomUUID()]);
    expect(JSON.parse(notificationPayload('me', few))).toEqual({ origin: 'me', event: few });
    const many = changed(Array.from({ length: 300 }, () => randomUUID()));
    const payload = notificationPayload('me', many);
    expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    const { featureIds: _ids, ...rest } = many as Extract<ChangeEvent, { type: 'environment.changed' }>;
    expect(JSON.parse(payload)).toEqual({ origin: 'me', event: rest });
  });

  it('keeps a received list of ids only when it is one, and marks the event remote', () => {
    const few = changed([randomUUID()]);
    expect(receivedEvent(few)).toEqual({ ...few, remote: true });
    const bare = changed();
    expect(receivedEvent(bare)).toEqual({ ...bare, remote: true });
    for (const featureIds of ['x', [1, 2], null, { 0: 'a' }]) {
      const odd = { ...bare, featureIds } as unknown as ChangeEvent;
      expect(receivedEvent(odd)).toEqual({ ...bare, remote: true });
    }
  });
});
