import { describe, expect, it } from 'vitest';
import { createLiveConnection, reconnectDelay } from './live-connection';

/** A socket the test drives: it opens, brings messages and drops when told. */
class FakeSocket {
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed = false;
  close() {
    this.closed = true;
    this.onclose?.({} as CloseEvent);
  }
  open() {
    this.onopen?.({} as Event);
  }
  receive(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent);
  }
  drop(code = 1006) {
    this.onclose?.({ code } as CloseEvent);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const ended: string[] = [];
  const connection = createLiveConnection('ws://vexil.test/api/v1/live', {
    onEnded: () => ended.push('ended'),
    open: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    setTimer: (run, ms) => {
      const timer = { run, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => timers.splice(timers.indexOf(timer as (typeof timers)[number]), 1),
  });
  return { connection, sockets, timers, ended };
}

describe('the live connection', () => {
  it('connects at once, and passes on the changes it hears (nothing else)', () => {
    const { connection, sockets } = setup();
    expect(connection.status()).toBe('CONNECTING');
    const statuses: string[] = [];
    connection.onStatus(() => statuses.push(connection.status()));
    const changes: unknown[] = [];
    connection.onChange((change) => changes.push(change));
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'hello' });
    sockets[0]!.receive('not json');
    const change = { kind: 'feature.toggled', projectKey: 'web', featureKey: 'checkout', at: 'now' };
    sockets[0]!.receive({ type: 'change', change });
    expect(statuses).toEqual(['CONNECTED']);
    expect(changes).toEqual([change]);
  });

  it('ignores a malformed message without breaking: later changes still arrive', () => {
    const { connection, sockets } = setup();
    const changes: unknown[] = [];
    connection.onChange((change) => changes.push(change));
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'change' });
    sockets[0]!.receive({ type: 'change', change: null });
    sockets[0]!.receive({ type: 'change', change: { kind: 'feature.toggled', at: 'now' } });
    sockets[0]!.receive({
      type: 'change',
      change: { kind: 'feature.exploded', projectKey: 'web', at: 'now' },
    });
    sockets[0]!.receive({ type: 'change', change: { kind: 'feature.toggled', projectKey: 7, at: 'now' } });
    sockets[0]!.receive('null');
    sockets[0]!.receive('[1, 2]');
    expect(changes).toEqual([]);
    expect(connection.status()).toBe('CONNECTED');
    const change = {
      kind: 'experiment.changed',
      projectKey: 'web',
      at: '2026-12-07T00:00:00.000Z',
      actor: { id: 'u1', name: 'ada@example.com' },
      experiment: { name: 'Checkout', transition: 'started' },
    };
    sockets[0]!.receive({ type: 'change', change });
    expect(changes).toEqual([change]);
  });

  it('reconnects after a drop with a growing wait, and starts the count again once connected', () => {
    const { connection, sockets, timers } = setup();
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(connection.status()).toBe('DISCONNECTED');
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBeGreaterThanOrEqual(1_000);
    timers.shift()!.run();
    sockets[1]!.drop();
    expect(timers[0]!.ms).toBeGreaterThanOrEqual(2_000);
    timers.shift()!.run();
    sockets[2]!.open();
    expect(connection.status()).toBe('CONNECTED');
    sockets[2]!.drop();
    expect(timers[0]!.ms).toBeLessThan(2_000);
  });

  it('stops for good: no more attempts after stop', () => {
    const { connection, sockets, timers } = setup();
    sockets[0]!.open();
    connection.stop();
    expect(sockets[0]!.closed).toBe(true);
    expect(connection.status()).toBe('DISCONNECTED');
    expect(timers).toEqual([]);
  });

  it('stops, and says so, when the server ends it because the session ended or may no longer read', () => {
    for (const code of [4401, 4403]) {
      const { connection, sockets, timers, ended } = setup();
      sockets[0]!.open();
      sockets[0]!.drop(code);
      expect(connection.status()).toBe('DISCONNECTED');
      expect(timers).toEqual([]);
      expect(sockets).toHaveLength(1);
      expect(ended).toEqual(['ended']);
    }
    // Any other close is a drop to recover from, unannounced.
    const { sockets, timers, ended } = setup();
    sockets[0]!.open();
    sockets[0]!.drop(1001);
    expect(timers).toHaveLength(1);
    expect(ended).toEqual([]);
  });

  it('waits between 1 s and 30 s (plus up to a quarter), doubling', () => {
    expect(reconnectDelay(0, () => 0)).toBe(1_000);
    expect(reconnectDelay(3, () => 0)).toBe(8_000);
    expect(reconnectDelay(20, () => 0)).toBe(30_000);
    expect(reconnectDelay(20, () => 1)).toBe(37_500);
  });
});
