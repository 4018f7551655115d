/**
 * A TCP proxy between the product and PostgreSQL that the battery can cut: while cut it forwards
 * nothing in either direction and holds every socket open (a network partition, not a refusal), and
 * new connections wait for the link; on resume what was held is delivered in order.
 */
import net from 'node:net';

export type Proxy = {
  port: number;
  readonly isCut: boolean;
  cut(): void;
  resume(): void;
  close(): Promise<void>;
};

type Direction = { to: () => net.Socket | null; held: Buffer[] };

export async function startProxy(target: { host: string; port: number }): Promise<Proxy> {
  let isCut = false;
  const sockets = new Set<net.Socket>();
  const waiting: (() => void)[] = [];
  const flushers = new Set<() => void>();

  const server = net.createServer((client) => {
    sockets.add(client);
    let upstream: net.Socket | null = null;
    const up: Direction = { to: () => upstream, held: [] };
    const down: Direction = { to: () => client, held: [] };
    const forward = (direction: Direction, chunk: Buffer) => {
      const to = direction.to();
      if (isCut || !to || to.connecting) direction.held.push(chunk);
      else to.write(chunk);
    };
    const flush = () => {
      for (const direction of [up, down]) {
        const to = direction.to();
        if (!to || to.connecting || to.destroyed) continue;
        for (const chunk of direction.held.splice(0)) to.write(chunk);
      }
    };
    const close = () => {
      flushers.delete(flush);
      client.destroy();
      upstream?.destroy();
    };
    client.on('data', (chunk: Buffer) => forward(up, chunk));
    client.on('error', close);
    client.on('close', () => {
      sockets.delete(client);
      close();
    });
    const connect = () => {
      upstream = net.connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('connect', () => {
        if (!isCut) flush();
      });
      upstream.on('data', (chunk: Buffer) => forward(down, chunk));
      upstream.on('error', close);
      upstream.on('close', () => {
        if (upstream) sockets.delete(upstream);
        // Deliver what PostgreSQL said last (a termination notice) before closing the client.
        if (!isCut) {
          flush();
          client.end();
        } else close();
      });
    };
    flushers.add(flush);
    if (isCut) waiting.push(connect);
    else connect();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    get isCut() {
      return isCut;
    },
    cut() {
      isCut = true;
    },
    resume() {
      isCut = false;
      for (const connect of waiting.splice(0)) connect();
      for (const flush of flushers) flush();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
