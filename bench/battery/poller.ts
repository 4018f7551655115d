/**
 * The SDK poller, run as a process of its own so the battery's bookkeeping does not share its event
 * loop. Open loop at a fixed rate with even spacing: request i is due at start + i / rate, and the
 * loop wakes every millisecond to send what is due (two at a time at 2,000 req/s, where autocannon's
 * `overallRate` fires every connection on the same tick and so measures its own bursts). Latency is
 * measured from when a request was due, so a stalled sender counts against the server rather than
 * hiding it. Requests share a fixed pool of keep-alive connections, as a fleet of SDK pollers holds
 * its connections open: when every connection is busy, due requests wait on this side (and that
 * wait counts in their latency) instead of opening hundreds of new connections at once, which would
 * overflow the server's accept queue and measure SYN retries rather than the server. Reads its job as
 * JSON from argv[2]; writes its figures as JSON on stdout.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export type PollJob = {
  base: string;
  path: string;
  /** Headers of each request in the mix, used round-robin. */
  mix: Record<string, string>[];
  rate: number;
  seconds: number;
  /** Keep-alive connections the requests share. */
  connections: number;
  /** Past this many answers outstanding (sent or waiting for a connection) a due request is counted as failed, not sent. */
  maxInFlight: number;
};

export type PollFigures = {
  latenciesMs: number[];
  statuses: Record<string, number>;
  errors: Record<string, number>;
  /** Requests due but not sent because `maxInFlight` answers were outstanding. */
  skipped: number;
  elapsedS: number;
};

function run(job: PollJob): Promise<PollFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  let sent = 0;
  let answered = 0;
  let skipped = 0;
  let inFlight = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finishIfDone = () => {
      if (sent + skipped === total && answered === sent) {
        agent.destroy();
        resolve({
          latenciesMs: latencies,
          statuses,
          errors,
          skipped,
          elapsedS: (performance.now() - start) / 1000,
        });
      }
    };
    const fire = (index: number) => {
      const dueAt = start + index * interval;
      inFlight += 1;
      let settled = false;
      const settle = (status: string | null, error: string | null) => {
        if (settled) return;
        settled = true;
        inFlight -= 1;
        answered += 1;
        latencies.push(performance.now() - dueAt);
        if (status) statuses[status] = (statuses[status] ?? 0) + 1;
        if (error) errors[error] = (errors[error] ?? 0) + 1;
        finishIfDone();
      };
      const request = http.get(
        `${job.base}${job.path}`,
        { headers: job.mix[index % job.mix.length], agent, timeout: 10_000 },
        (response) => {
          response.on('data', () => {});
          response.on('end', () => settle(String(response.statusCode), null));
          response.on('error', (error) => settle(null, error.message));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', (error) => settle(null, error.message));
    };
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      while (sent + skipped < due) {
        const index = sent + skipped;
        if (inFlight >= job.maxInFlight) skipped += 1;
        else {
          sent += 1;
          fire(index);
        }
      }
      if (sent + skipped < total) setTimeout(tick, 1);
      else finishIfDone();
    };
    tick();
  });
}

const job = JSON.parse(process.argv[2] ?? '{}') as PollJob;
run(job).then(
  (figures) => process.stdout.write(JSON.stringify(figures), () => process.exit(0)),
  (error: unknown) => {
    process.stderr.write(`poller: ${String(error)}\n`);
    process.exit(1);
  },
);
