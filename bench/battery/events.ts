/**
 * SDK event traffic: batches in the shapes of docs/sdk-protocol.md §4 sent alternately on the Featureflow
 * server route (Bearer server key) and the JS route (key in the path), and the tally of what the
 * product acknowledged, impression by impression.
 */
import type { Planned, Shot } from './client';
import { percentile } from './client';
import { ROW_FEATURES, type SdkEnvironment } from './setup';

export type Batch = { body: string; impressions: number };

/** `size` evaluate events over the row's features, 1 to 3 impressions each (Node-HEAD/Java summaries). */
export function eventBatch(prefix: string, size: number): Batch {
  let impressions = 0;
  const events = Array.from({ length: size }, (_, i) => {
    const count = 1 + (i % 3);
    impressions += count;
    return {
      featureKey: `${prefix}-${i % ROW_FEATURES}`,
      evaluatedVariant: i % 2 ? 'on' : 'off',
      type: 'evaluate',
      impressions: count,
      user: { id: `user-${i}`, attributes: { tier: i % 4 ? 'silver' : 'gold' } },
    };
  });
  return { body: JSON.stringify(events), impressions };
}

/** The i-th post of `batch` for an environment: even on the server route, odd on the JS route. */
export function eventPost(environment: SdkEnvironment, batch: Batch, i: number, tag: string): Planned {
  const common = { method: 'POST', body: batch.body, tag, weight: batch.impressions };
  return i % 2 === 0
    ? {
        ...common,
        path: '/api/sdk/v1/events',
        headers: { authorization: `Bearer ${environment.apiKey}`, 'content-type': 'application/json' },
      }
    : {
        ...common,
        path: `/api/js/v1/event/${environment.jsApiKey}`,
        headers: { 'content-type': 'application/json' },
      };
}

export type Tally = {
  sent: number;
  acked: number;
  ackedImpressions: number;
  /** Answered 429 or 503 with Retry-After. */
  throttled: number;
  status429: number;
  status503: number;
  /** Neither 2xx nor 429/503 with Retry-After, or no answer at all. */
  violations: number;
  noAnswer: number;
  /** Weight of the posts that got no answer: stored or not, nobody was told. */
  unknownImpressions: number;
  others: string[];
  p50: number;
  p99: number;
};

export function tally(shots: readonly Shot[], tag?: string): Tally {
  const mine = tag === undefined ? shots : shots.filter((shot) => shot.tag === tag);
  const result: Tally = {
    sent: mine.length,
    acked: 0,
    ackedImpressions: 0,
    throttled: 0,
    status429: 0,
    status503: 0,
    violations: 0,
    noAnswer: 0,
    unknownImpressions: 0,
    others: [],
    p50: percentile(
      mine.map((shot) => shot.answeredAt - shot.sentAt),
      0.5,
    ),
    p99: percentile(
      mine.map((shot) => shot.answeredAt - shot.sentAt),
      0.99,
    ),
  };
  const others = new Map<string, number>();
  for (const shot of mine) {
    if (shot.status >= 200 && shot.status < 300) {
      result.acked += 1;
      result.ackedImpressions += shot.weight;
      continue;
    }
    if (shot.status === 429) result.status429 += 1;
    if (shot.status === 503) result.status503 += 1;
    if ((shot.status === 429 || shot.status === 503) && shot.retryAfter) {
      result.throttled += 1;
      continue;
    }
    result.violations += 1;
    if (shot.status === 0) {
      result.noAnswer += 1;
      result.unknownImpressions += shot.weight;
    }
    const label =
      shot.status === 0
        ? `no answer (${shot.error})`
        : `${shot.status}${shot.retryAfter ? '' : ' without Retry-After'}`;
    others.set(label, (others.get(label) ?? 0) + 1);
  }
  result.others = [...others].map(([label, count]) => `${count}× ${label}`);
  return result;
}

export function describeTally(t: Tally): string {
  const parts = [`${t.acked}/${t.sent} acked (${t.ackedImpressions.toLocaleString('en-GB')} impressions)`];
  if (t.status429) parts.push(`${t.status429}× 429`);
  if (t.status503) parts.push(`${t.status503}× 503`);
  if (t.others.length) parts.push(`other: ${t.others.join(', ')}`);
  return parts.join(', ');
}
