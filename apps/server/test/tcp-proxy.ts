import net from 'node:net';

export type TcpProxy = {
  /** The proxy's own URL for a database URL that points at the proxied server. */
  url(databaseUrl: string): string;
  /**
   * Imitates a network partition: nothing is forwarded any more in either direction, and no socket
   * is closed, so each side sees silence rather than a reset. New connections are accepted and held.
   */
  cut(): void;
  /** Heals the partition: held data and held connections flow again. */
  restore(): void;
  close(): Promise<void>;
};

type Pair = { client: net.Socket; server: net.Socket | null };

/** A loopback TCP proxy that a test can cut and restore, to put a partition between app and database. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let partitioned = false;

  function link(pair: Pair) {
    const server = net.connect(target.port, target.host);
    pair.server = server;
    // Forwarded by hand, not piped: a pipe would resume a side that `cut` paused.
    pair.client.on('data', (chunk: Buffer) => server.write(chunk));
    server.on('data', (chunk: Buffer) => pair.client.write(chunk));
    pair.client.on('end', () => server.end());
    server.on('end', () => pair.client.end());
    const drop = () => {
      pair.client.destroy();
      server.destroy();
      pairs.delete(pair);
    };
    server.on('error', drop);
    server.on('close', drop);
  }

  const proxy = net.createServer((client) => {
    const pair: Pair = { client, server: null };
    pairs.add(pair);
    client.on('error', () => client.destroy());
    client.on('close', () => {
      // A socket closed by the application while partitioned stays half-alive towards the server
      // until the partition heals, as a real one would.
      if (!partitioned) {
        pair.server?.destroy();
        pairs.delete(pair);
      }
    });
    if (partitioned) client.pause();
    else link(pair);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;

  return {
    url(databaseUrl) {
      const parsed = new URL(databaseUrl);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      partitioned = true;
      for (const pair of pairs) {
        pair.client.pause();
        pair.server?.pause();
      }
    },
    restore() {
      partitioned = false;
      for (const pair of [...pairs]) {
        if (pair.client.destroyed) {
          pair.server?.destroy();
          pairs.delete(pair);
          continue;
        }
        if (!pair.server) link(pair);
        pair.client.resume();
        pair.server?.resume();
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
