import { expect } from 'vitest';
import WebSocket from 'ws';

export type LiveMessage = { type: string; change?: Record<string, unknown> };

/**
 * A dashboard's socket to `/api/v1/live` at `address` (ws://…): the messages it received, in order,
 * and how it was closed, once it is.
 */
export async function connectLive(address: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${address}/api/v1/live`, { headers });
  const received: LiveMessage[] = [];
  let closed: { code: number; reason: string } | null = null;
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as LiveMessage));
  socket.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused with ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
  await expect.poll(() => received.map((m) => m.type)).toContain('hello');
  return {
    received,
    changes: () => received.filter((m) => m.type === 'change').map((m) => m.change!),
    /** How the server closed it: null while it is open. */
    closed: () => closed,
    close: () => socket.close(),
  };
}

/** The `ws://` address of an app listening on `http://`. */
export function wsAddress(httpAddress: string): string {
  return httpAddress.replace('http', 'ws');
}
