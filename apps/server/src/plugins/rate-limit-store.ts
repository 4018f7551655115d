import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { SharedCounters } from '../db/counters';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The store of the routes' per-client-address limits (`config.rateLimit`): counted in the database
 * (db/counters.ts), so that several instances on one PostgreSQL share each limit rather than
 * granting it once each, and a restart does not reset it. Only the public account routes and a few
 * rare admin ones have such a limit, so the upsert each costs is not on any busy path.
 */
export function sharedRateLimitStore(counters: SharedCounters): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    private readonly route: string;

    /** The plugin builds the root store with its options; each route's child is named by its route. */
    constructor(_options: unknown, route = '') {
      this.route = route;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      counters.count(`route:${this.route}:${key}`, timeWindow).then(
        ({ count, msLeft }) => callback(null, { current: count, ttl: msLeft }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(options: unknown): FastifyRateLimitStore {
      const route = (options as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new SharedStore(options, `${String(route?.method ?? '')} ${String(route?.url ?? '')}`);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
