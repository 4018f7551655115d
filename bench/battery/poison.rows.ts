/**
 * S1: poison on every SDK route (NUL bytes, extreme timestamps, 1 MB strings, deep JSON, wrong
 * types), with a bystander tenant posting clean events between poison posts. What the product
 * acknowledged of the poisoner's countable events must be stored, and all the bystander's.
 */
import { send, type Answer, type Call } from './client';
import { storedAfterStop, type Context } from './context';
import { eventBatch, eventPost, tally } from './events';
import { fmt, verdictOf, type Outcome } from './report';
import type { Tenant } from './setup';

const MB = 'x'.repeat(1024 * 1024);
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const event = (extra: Record<string, unknown>) =>
  JSON.stringify([{ featureKey: 's1-0', evaluatedVariant: 'on', user: { id: 'poison' }, ...extra }]);
const valid = { featureKey: 's1-1', evaluatedVariant: 'off', impressions: 2, user: 'bystander-in-batch' };

/** Event bodies, as sent (some are not JSON at all). */
const EVENT_BODIES: Record<string, string> = {
  'NUL in variant': event({ evaluatedVariant: 'on\u0000' }),
  'NUL in feature key': event({ featureKey: 's1-0\u0000' }),
  'NUL in user id and attributes': event({ user: { id: 'u\u0000', attributes: { 'k\u0000': 'v\u0000' } } }),
  'NUL in goal': JSON.stringify([{ type: 'goal', goalKey: 'g\u0000', user: 'u' }]),
  'year +275760': event({ timestamp: '+275760-09-13T00:00:00.000Z' }),
  'year -271821': event({ timestamp: '-271821-04-20T00:00:00.000Z' }),
  'year 0000': event({ timestamp: '0000-01-01T00:00:00Z' }),
  'year 9999': event({ timestamp: '9999-12-31T23:59:59.999999999+14:00' }),
  'month 13': event({ timestamp: '2026-13-45T99:99:99Z' }),
  'timestamp as number': event({ timestamp: 8.64e15 }),
  '1 MB user id': event({ user: { id: MB } }),
  '1 MB attribute value': event({ user: { id: 'u', attributes: { big: MB } } }),
  '1 MB attribute name': event({ user: { id: 'u', attributes: { [MB]: 1 } } }),
  '1 MB variant': event({ evaluatedVariant: MB }),
  '1 MB unknown field': event({ note: MB }),
  '6 MB body': JSON.stringify(Array.from({ length: 6 }, () => ({ featureKey: 's1-0', note: MB }))),
  'deep JSON field': `[{"featureKey":"s1-0","evaluatedVariant":"on","data":${deepObject(100_000)}}]`,
  'deep arrays': deepArray(100_000),
  'deep attribute': `[{"featureKey":"s1-0","evaluatedVariant":"on","user":{"id":"u","attributes":{"a":${deepObject(5_000)}}}}]`,
  'object, not array': JSON.stringify({ featureKey: 's1-0', evaluatedVariant: 'on' }),
  'number body': '42',
  'null body': 'null',
  'not JSON': '[{"featureKey":',
  'impressions as string': event({ impressions: '5' }),
  'impressions 1e300': event({ impressions: 1e300 }),
  'impressions -1': event({ impressions: -1 }),
  'impressions 1.5': event({ impressions: 1.5 }),
  'feature key as number': event({ featureKey: 5 }),
  'user as array': event({ user: [1, 2] }),
  'attributes as string': event({ user: { id: 'u', attributes: 'x' } }),
  'type as number': event({ type: 5 }),
  'valid event beside poison': JSON.stringify([
    valid,
    { featureKey: 's1-2', evaluatedVariant: 'on\u0000', timestamp: '+275760-09-13T00:00:00.000Z' },
  ]),
  '__proto__ row': '[{"featureKey":"s1-0","evaluatedVariant":"on","__proto__":{"polluted":1}}]',
};

/** Impressions the product must store if it acknowledges `body`: clean evaluate rows of the row's features. */
function countable(body: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 0;
  }
  if (!Array.isArray(parsed)) return 0;
  let total = 0;
  for (const row of parsed as Record<string, unknown>[]) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) continue;
    if (row.type !== undefined && row.type !== null && row.type !== 'evaluate') continue;
    if (typeof row.featureKey !== 'string' || !/^s1-[0-4]$/.test(row.featureKey)) continue;
    if (typeof row.evaluatedVariant !== 'string' || row.evaluatedVariant === '') continue;
    const impressions = row.impressions;
    if (impressions === undefined || impressions === null) total += 1;
    else if (
      Number.isSafeInteger(impressions) &&
      (impressions as number) > 0 &&
      (impressions as number) <= 1e6
    )
      total += impressions as number;
  }
  return total;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

function otherRoutes(tenant: Tenant): { name: string; call: Call }[] {
  const server = { authorization: `Bearer ${tenant.development.apiKey}` };
  const js = tenant.production.jsApiKey;
  const register = (body: string) => ({ method: 'PUT', path: '/api/sdk/v1/register', headers: server, body });
  const ofrep = (body: string, key = '') => ({
    method: 'POST',
    path: `/ofrep/v1/evaluate/flags${key}`,
    headers: { authorization: `Bearer ${tenant.production.apiKey}`, 'content-type': 'application/json' },
    body,
  });
  const evaluate = (segment: string, query = '') => ({
    method: 'GET',
    path: `/api/js/v1/evaluate/${js}/user/${segment}${query}`,
  });
  return [
    { name: 'register NUL key', call: register('[{"key":"s1-reg\\u0000"}]') },
    { name: 'register 1 MB key', call: register(JSON.stringify([{ key: MB }])) },
    {
      name: 'register 1 MB variant value',
      call: register(
        JSON.stringify([{ key: 's1-reg-big', variants: [{ key: 'on', value: MB }, { key: 'off' }] }]),
      ),
    },
    {
      name: 'register deep variant value',
      call: register(
        `[{"key":"s1-reg-deep","variants":[{"key":"on","value":${deepObject(50_000)}},{"key":"off"}]}]`,
      ),
    },
    {
      name: 'register NUL variant',
      call: register(
        '[{"key":"s1-reg-nul","variants":[{"key":"on\\u0000","name":"x\\u0000"},{"key":"off"}]}]',
      ),
    },
    { name: 'register wrong types', call: register('[{"key":5,"variants":"x"}]') },
    { name: 'register deep arrays', call: register(deepArray(100_000)) },
    {
      name: 'features, huge If-None-Match',
      call: {
        method: 'GET',
        path: '/api/sdk/v1/features',
        headers: { ...server, 'if-none-match': 'x'.repeat(8000) },
      },
    },
    {
      name: 'features, odd key',
      call: {
        method: 'GET',
        path: '/api/sdk/v1/features',
        headers: { authorization: "Bearer sdk-srv-env-' OR 1=1 --" },
      },
    },
    { name: 'evaluate NUL user', call: evaluate(b64('{"id":"u\\u0000","attributes":{"tier":"\\u0000"}}')) },
    { name: 'evaluate deep user', call: evaluate(b64(`{"id":"u","attributes":{"a":${deepObject(2_000)}}}`)) },
    { name: 'evaluate huge number', call: evaluate(b64('{"id":1e400,"attributes":{"age":1e400}}')) },
    { name: 'evaluate not base64', call: evaluate('%25%00%ff') },
    {
      name: 'evaluate keys with NUL',
      call: evaluate(b64('{"id":"u"}'), `?keys=${encodeURIComponent('a\u0000,'.repeat(1000))}`),
    },
    { name: 'OFREP NUL context', call: ofrep('{"context":{"targetingKey":"u\\u0000","tier":"\\u0000"}}') },
    { name: 'OFREP deep context', call: ofrep(`{"context":{"targetingKey":"u","a":${deepObject(50_000)}}}`) },
    { name: 'OFREP 1 MB key', call: ofrep(JSON.stringify({ context: { targetingKey: MB } })) },
    { name: 'OFREP wrong types', call: ofrep('{"context":[1,2]}') },
    {
      name: 'OFREP flag key with NUL',
      call: ofrep('{"context":{"targetingKey":"u"}}', `/${encodeURIComponent('flag-0\u0000')}`),
    },
  ];
}

export async function s1(ctx: Context): Promise<Outcome> {
  const [poisoner, bystander] = ctx.tenants as [Tenant, Tenant];
  const base = ctx.product.base;
  const clean = eventBatch('s1', 10);
  let expected = 0;
  const cleanShots: (Answer & { tag: string; weight: number })[] = [];
  const statuses = new Map<string, number>();
  const serverErrors: string[] = [];
  const count = (route: string, answer: Answer, name: string, bytes: number) => {
    // Past the body limit the product may refuse without reading, closing the connection under the write.
    const unread = answer.status === 0 && bytes > 5 * 1024 * 1024;
    if (!unread && (answer.status === 0 || answer.status >= 500))
      serverErrors.push(`${name}: ${answer.status || answer.error}`);
    const label = answer.status === 0 ? 'no answer' : `${Math.floor(answer.status / 100)}xx`;
    statuses.set(`${route} ${label}`, (statuses.get(`${route} ${label}`) ?? 0) + 1);
  };
  const bystanderPost = async () => {
    const post = eventPost(bystander.production, clean, cleanShots.length, 'bystander');
    cleanShots.push({ ...(await send(base, post)), tag: post.tag, weight: post.weight });
  };
  const acceptedPoison: string[] = [];
  let i = 0;
  for (const [name, body] of Object.entries(EVENT_BODIES)) {
    for (const route of ['server', 'js'] as const) {
      const post = eventPost(
        poisoner.production,
        { body, impressions: 0 },
        route === 'server' ? 0 : 1,
        'poison',
      );
      const answer = await send(base, post);
      count('events', answer, `${name} (${route})`, body.length);
      if (answer.status >= 200 && answer.status < 300) {
        expected += countable(body);
        acceptedPoison.push(`${name} (${route})`);
      }
      await bystanderPost();
      i += 1;
    }
  }
  for (const { name, call } of otherRoutes(poisoner)) {
    count('other routes', await send(base, call), name, String(call.body ?? '').length);
    await bystanderPost();
  }
  const alive = ctx.product.alive;
  const { stored } = await storedAfterStop(ctx, 's1');
  const storedPoisoner = stored.get(poisoner.domain) ?? 0;
  const storedBystander = stored.get(bystander.domain) ?? 0;
  const by = tally(cleanShots);
  const dropped = Math.max(0, expected - storedPoisoner);
  return {
    figures: [
      `${i} poison event posts and ${otherRoutes(poisoner).length} poison calls on register, features, JS evaluate and OFREP: ${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}`,
      ...(serverErrors.length ? [`5xx or no answer (not a pass criterion): ${serverErrors.join(', ')}`] : []),
      `poison acked: ${acceptedPoison.length}; their clean impressions stored ${fmt.n(storedPoisoner)} of ${fmt.n(expected)} (dropped ${fmt.n(dropped)})`,
      `bystander: ${by.acked}/${by.sent} posts acked, stored ${fmt.n(storedBystander)} of ${fmt.n(by.sent * clean.impressions)} impressions sent`,
      ...(alive ? [] : [`process died (${ctx.product.lastExit})`]),
    ],
    ...verdictOf({
      'process died': alive,
      [`${fmt.n(dropped)} acknowledged impressions dropped`]: dropped === 0,
      [`bystander: ${by.sent - by.acked} posts refused, ${fmt.n(by.sent * clean.impressions - storedBystander)} impressions missing`]:
        by.acked === by.sent && storedBystander === by.sent * clean.impressions,
    }),
  };
}
