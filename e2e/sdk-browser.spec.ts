import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useFreshPage } from './support/browser';

import { sharedServerURL } from './support/shared-server';
import { adminApi } from './support/api';

const t = useFreshPage();
// The UMD build, next to the package's main entry (its exports map does not name it).
const umd = path.join(
  path.dirname(createRequire(import.meta.url).resolve('featureflow-client')),
  'featureflow.umd.js',
);

/**
 * A shop on its own origin (a server of its own on loopback, like Vexil here: Chromium lets a page
 * call a server in the same address space) that loads the published SDK; closed after the test.
 */
async function openShop(): Promise<number> {
  const script = await readFile(umd, 'utf8');
  const shop = http.createServer((request, response) => {
    if (request.url === '/featureflow.umd.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Shop</title><script src="/featureflow.umd.js"></script>');
    }
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => shop.close(() => resolve())));
  return (shop.address() as AddressInfo).port;
}

describe('featureflow-client 2.1.0 in Chromium', () => {
  it('evaluates a feature for its user and sends evaluate and goal events from another origin', async () => {
    const base = sharedServerURL();
    const api = await adminApi(base);
    type Control = {
      id: string;
      offVariantKey: string;
      statistics: { impressions: { today: number } };
      available: boolean;
    };
    const feature = await api<{ controls: Record<string, Control> }>('POST', '/api/v1/projects/sp/features', {
      name: 'Browser banner',
      key: 'browser-banner',
    });
    await api('PUT', '/api/v1/feature-controls/', {
      id: feature.controls.development!.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [
        {
          defaultRule: false,
          audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
          variantSplits: [{ variantKey: 'on', split: 100 }],
        },
        { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
      ],
    });
    const environment = await api<{ jsApiKey: string }>('GET', '/api/v1/environments/sp/development');

    const port = await openShop();
    const sent: string[] = [];
    t.page.on('request', (request) => {
      if (request.url().includes('/api/js/v1/event/')) sent.push(request.postData() ?? '');
    });
    const eventResponses: number[] = [];
    t.page.on('response', (response) => {
      if (response.url().includes('/api/js/v1/event/')) eventResponses.push(response.status());
    });
    await t.page.goto(`http://127.0.0.1:${port}/`);

    type Browser = {
      Featureflow: {
        init(
          key: string,
          user: unknown,
          config: unknown,
        ): Promise<{ evaluate(key: string): { value(): string }; goal(key: string): void }>;
      };
    };
    const variants = await t.page.evaluate(
      async ({ key, url }) => {
        const { Featureflow } = window as unknown as Browser;
        const gold = await Featureflow.init(
          key,
          { id: 'user-1', attributes: { tier: 'gold' } },
          { baseUrl: url, eventsUrl: url },
        );
        const value = gold.evaluate('browser-banner').value();
        gold.goal('checkout-complete');
        return value;
      },
      { key: environment.jsApiKey, url: base },
    );
    expect(variants).toBe('on');

    // The SDK flushes events about two seconds after the first; the server counts them within five.
    await expect.poll(() => sent.join('\n'), { timeout: 10_000 }).toContain('"goalKey":"checkout-complete"');
    expect(sent.join('\n')).toContain('"featureKey":"browser-banner"');
    await expect.poll(() => eventResponses, { timeout: 10_000 }).toContain(200);
    await expect
      .poll(
        async () =>
          (
            await api<{ controls: Record<string, Control> }>(
              'GET',
              '/api/v1/projects/sp/features/browser-banner',
            )
          ).controls.development!.statistics.impressions.today,
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(1);
  });

  it('drives 2,000 users through a 50/50 experiment: the stored exposures and conversions equal what the pages did', async () => {
    const base = sharedServerURL();
    const api = await adminApi(base);
    const feature = await api<{ id: string; controls: Record<string, { id: string }> }>(
      'POST',
      '/api/v1/projects/sp/features',
      { name: 'Browser experiment', key: 'browser-experiment' },
    );
    await api('PUT', '/api/v1/feature-controls/', {
      id: feature.controls.development!.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [
        {
          defaultRule: true,
          audience: null,
          variantSplits: [
            { variantKey: 'off', split: 50 },
            { variantKey: 'on', split: 50 },
          ],
        },
      ],
    });
    const experiment = await api<{ id: string }>('POST', '/api/v1/experiments/', {
      projectKey: 'sp',
      environmentKey: 'development',
      name: 'Browser experiment',
      goalKey: 'signed-up',
      featureId: feature.id,
      control: 'off',
      variation: 'on',
      enabled: true,
    });
    const environment = await api<{ jsApiKey: string }>('GET', '/api/v1/environments/sp/development');

    const port = await openShop();
    await t.page.goto(`http://127.0.0.1:${port}/`);

    type Browser = {
      Featureflow: {
        init(
          key: string,
          user: unknown,
          config: unknown,
        ): Promise<{ evaluate(key: string): { value(): string }; goal(key: string): void }>;
      };
    };
    // One published client per user, as 2,000 visitors' browsers would have; a known share converts.
    const sent = await t.page.evaluate(
      async ({ key, url, users }) => {
        const { Featureflow } = window as unknown as Browser;
        const counts = { on: { impressions: 0, goals: 0 }, off: { impressions: 0, goals: 0 } };
        const visit = async (i: number) => {
          const client = await Featureflow.init(
            key,
            { id: `visitor-${i}` },
            { baseUrl: url, eventsUrl: url },
          );
          const variant = client.evaluate('browser-experiment').value() as 'on' | 'off';
          counts[variant].impressions += 1;
          if (variant === 'on' ? i % 4 === 0 : i % 8 === 0) {
            client.goal('signed-up');
            counts[variant].goals += 1;
          }
        };
        // A few hundred visitors at a time: one page cannot hold thousands of requests open.
        for (let start = 0; start < users; start += 200) {
          await Promise.all(Array.from({ length: Math.min(200, users - start) }, (_, i) => visit(start + i)));
        }
        return counts;
      },
      { key: environment.jsApiKey, url: base, users: 2_000 },
    );
    expect(sent.on.impressions + sent.off.impressions).toBe(2_000);

    type Stats = { variantResults: Record<string, { impressions: number; goals: number }> };
    const stored = async () => {
      const stats = await api<Stats>('GET', `/api/v1/experiment-statistics/${experiment.id}`);
      return {
        on: { impressions: stats.variantResults.on!.impressions, goals: stats.variantResults.on!.goals },
        off: { impressions: stats.variantResults.off!.impressions, goals: stats.variantResults.off!.goals },
      };
    };
    // Each client flushes its events about two seconds after its first.
    await expect.poll(stored, { timeout: 30_000, interval: 500 }).toEqual(sent);
  });
});
