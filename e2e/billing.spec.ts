import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client';
import { organisations, subscriptions } from '../apps/server/src/db/schema/index';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { adminApi, type Api } from './support/api';
import { ADMIN_PASSWORD, DEMO_DOMAIN, addDemoUser, startServer, type RunningServer } from './support/server';

/*
 * Admin › Billing with the local (self-hosted) billing provider (docs/product.md §2 "Billing", "Plans", §4
 * "Subscription", §8, §9): an organisation in its trial, at 90 % then 100 % of its features, the plans with
 * the Yearly toggle, a teammate who is not an admin, the local checkout and billing details pages; then,
 * on a second server, an organisation whose subscription is inactive.
 */

const EDITOR = 'editor@example.com';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo organisation on the Team plan's trial (the built-in catalogue: $20 a seat a month). */
async function subscribe(db: Database, status: 'trialing' | 'inactive', limits: Record<string, unknown>) {
  const [organisation] = await db.select().from(organisations).where(eq(organisations.domain, DEMO_DOMAIN));
  await db.insert(subscriptions).values({
    organisationId: organisation!.id,
    status,
    quantity: 2,
    productName: 'Team',
    currency: 'usd',
    interval: 'month',
    intervalCount: 1,
    amount: 2000,
    total: 4000,
    // 12 days less a minute: the dashboard rounds up to whole days.
    trialEnd: new Date(Date.now() + (status === 'trialing' ? 12 * DAY_MS - 60_000 : -DAY_MS)),
    limits,
  });
}

/** The Team plan's limits, but at most 10 features (the demo organisation has 3). */
const TRIAL_LIMITS = {
  maxOrganisationUsers: null,
  auditLog: true,
  variantTesting: true,
  maxApplicationUniqueUsers: 100_000,
  maxImpressions: 10_000_000,
  maxProjects: 10,
  maxEnvironments: 50,
  maxFeatures: 10,
};

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(
  server: RunningServer,
  email?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, server.url);
  await signIn(opened.page, email ? { email, password: ADMIN_PASSWORD } : {});
  return opened;
}

/** Screenshots at 1440 and 390 px, with `focus` (when given) in the middle of the view. */
async function shots(page: Page, name: string, focus?: Locator): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await focus?.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await viewShot(page, `${name}-${width}`, width);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Closes the toasts, so that a screenshot shows the screen under them. */
async function closeToasts(page: Page): Promise<void> {
  const buttons = page.locator('.mantine-Notification-closeButton');
  for (let left = await buttons.count(); left > 0; left--) await buttons.first().click();
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

/** The inactive-account toast (the Current Plan card says the same words). */
type InactiveTimes = { redirectedAt: number | null; toastAt: number | null };
type InactiveTimesWindow = { inactiveTimes: InactiveTimes };

/**
 * Runs in the page before the dashboard: notes when the address first becomes /admin/billing and
 * when the inactive-account toast first appears, by the page's clock (`performance.now()`).
 */
function recordInactiveTimes() {
  const times: InactiveTimes = { redirectedAt: null, toastAt: null };
  (window as unknown as InactiveTimesWindow).inactiveTimes = times;
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      if (times.redirectedAt === null && location.pathname === '/admin/billing')
        times.redirectedAt = performance.now();
    };
  }
  new MutationObserver((records) => {
    if (times.toastAt !== null) return;
    for (const record of records)
      record.addedNodes.forEach((node) => {
        // The toast, not the Current Plan notice, which says the same.
        const toast =
          node instanceof Element
            ? (node.closest('.mantine-Notification-root') ?? node.querySelector('.mantine-Notification-root'))
            : null;
        if (times.toastAt === null && toast?.textContent?.includes('Your account is inactive.'))
          times.toastAt = performance.now();
      });
  }).observe(document, { childList: true, subtree: true });
}

function inactiveToast(page: Page): Locator {
  return page.locator('.mantine-Notification-root', {
    hasText: 'Your account is inactive. Please purchase a subscription.',
  });
}

function usageRow(page: Page, label: string): Locator {
  return page.getByRole('table', { name: 'Usage' }).getByRole('row').filter({ hasText: label });
}

function plan(page: Page, name: string): Locator {
  return page.getByRole('article', { name: `${name} plan` });
}

async function openBilling(page: Page): Promise<void> {
  // `signIn` only clicks Sign in: going to another address before the answer comes would cancel it.
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await page.goto('/admin/billing');
  await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
  await plan(page, 'Team').waitFor();
}

describe('Billing, in the trial', () => {
  let server: RunningServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer(
      // The Enterprise card's Contact us leads here; without it the card is hidden.
      { BILLING_SALES_CONTACT: 'sales@example.com' },
      {
        prepare: async (db) => {
          await addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR');
          await subscribe(db, 'trialing', TRIAL_LIMITS);
        },
      },
    );
    api = await adminApi(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function addFeatures(from: number, count: number): Promise<void> {
    for (let n = from; n < from + count; n++)
      await api('POST', '/api/v1/projects/sp/features', { name: `Extra ${n}`, key: `extra-${n}` });
  }

  it('shows the trial, the plans, the limits and usage at 90 % then 100 % of the features', async () => {
    const { context, page } = await signedIn(server);
    // The trial banner, on every page, links to Billing.
    const banner = page.getByRole('link', { name: '12 days left in your trial' });
    await banner.click();
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/billing');
    await plan(page, 'Team').waitFor();

    const current = page.getByRole('region', { name: 'Current Plan' });
    expect(await current.getByText('Trial', { exact: true }).isVisible()).toBe(true);
    expect(await current.getByText(/Your trial ends in 12 days\./).isVisible()).toBe(true);
    expect(await page.getByText('This account has no billing information').isVisible()).toBe(true);
    expect(await usageRow(page, 'Features').textContent()).toContain('3 of 10');
    expect(await usageRow(page, 'Seats').textContent()).toContain('Unlimited');
    expect(await page.getByRole('table', { name: 'Plan limits' }).textContent()).toContain('10,000,000');
    await shots(page, 'billing-trial');

    // 9 of 10 features: the bar turns to warning; New Feature is still enabled.
    await addFeatures(1, 6);
    await openBilling(page);
    expect(await usageRow(page, 'Features').getAttribute('data-level')).toBe('warning');
    expect(await usageRow(page, 'Features').textContent()).toContain('9 of 10');
    await shots(page, 'billing-usage-90', usageRow(page, 'Features'));

    // 10 of 10: danger, and New Feature is disabled with the reason and the way to upgrade.
    await addFeatures(7, 1);
    await openBilling(page);
    expect(await usageRow(page, 'Features').getAttribute('data-level')).toBe('danger');
    expect(await usageRow(page, 'Features').textContent()).toContain('Limit reached');
    await shots(page, 'billing-usage-100', usageRow(page, 'Features'));

    await page.goto('/projects/sp/environments/development/features');
    const newFeature = page.getByRole('button', { name: 'New Feature' }).first();
    await page.getByText('Only 10 feature(s) allowed.').waitFor();
    expect(await newFeature.isDisabled()).toBe(true);
    await shots(page, 'billing-feature-limit');
    await page.getByRole('link', { name: 'Upgrade your plan' }).click();
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/billing');

    // The plans, yearly: $192 a seat a year is $16 a seat a month.
    await plan(page, 'Team').waitFor();
    expect(await plan(page, 'Team').getByText('$20', { exact: true }).isVisible()).toBe(true);
    await page.getByText('Yearly', { exact: true }).click();
    await plan(page, 'Team').getByText('$16', { exact: true }).waitFor();
    expect(await plan(page, 'Team').textContent()).toContain('billed yearly ($192 a seat)');
    const contact = plan(page, 'Enterprise').getByRole('link', { name: 'Contact us' });
    expect(await contact.getAttribute('href')).toBe('mailto:sales@example.com?subject=Vexil%20plans');
    // The plan on trial is marked, and bought rather than chosen.
    expect(await plan(page, 'Team').getByText('Current plan (trial)').isVisible()).toBe(true);
    expect(await plan(page, 'Team').getByRole('button', { name: 'Buy Team' }).isEnabled()).toBe(true);
    await shots(page, 'billing-plans-yearly', plan(page, 'Team'));
    await context.close();
  });

  it('tells a teammate who is not an admin whom to ask, at the feature limit and in the trial banner', async () => {
    const { context, page } = await signedIn(server, EDITOR);
    // The banner leads nowhere they may not go: it says whom to ask.
    await page.getByText('12 days left in your trial. Ask an organisation admin to choose a plan.').waitFor();
    expect(await page.getByRole('link', { name: /left in your trial/ }).count()).toBe(0);
    // 10 of 10 features (the test before): New Feature is disabled for them too, before any refusal.
    await page.goto('/projects/sp/environments/development/features');
    await page
      .getByText('Only 10 feature(s) allowed. Ask an organisation admin to upgrade the plan.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'New Feature' }).first().isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Upgrade your plan' }).count()).toBe(0);
    await shots(page, 'billing-feature-limit-member');
    await page.goto('/admin/billing');
    await page.getByText('Only organisation admins may manage billing...').waitFor();
    expect(await page.getByRole('heading', { name: 'Current Plan' }).count()).toBe(0);
    await shots(page, 'billing-not-admin');
    await context.close();
  });

  it('saves the billing details, then buys the Team plan yearly through the local checkout', async () => {
    const { context, page } = await signedIn(server);
    await openBilling(page);

    await page.getByRole('button', { name: 'Manage Billing Details' }).click();
    await page.getByRole('heading', { name: 'Billing details' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/billing/manage');
    expect(await page.getByText('No card on file (self-hosted billing)').isVisible()).toBe(true);
    await page.getByLabel('Billing e-mail').fill('accounts@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0000');
    await shots(page, 'billing-manage');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Billing details saved.').waitFor();
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    const info = page.getByRole('region', { name: 'Billing Information' });
    await info.getByText('accounts@example.com').waitFor();
    expect(await info.textContent()).toContain('Ada Lovelace');
    await closeToasts(page);

    // Free first: the confirmation says what the organisation passes there and what it would lose.
    await plan(page, 'Free').getByRole('button', { name: 'Choose Free' }).click();
    await page.getByRole('heading', { name: 'Confirm your plan' }).waitFor();
    const over = page.getByRole('list', { name: 'Over the Free plan’s limits' });
    await over.waitFor();
    expect(await over.textContent()).toContain(
      '2 seats in use (members and pending invitations); Free includes 1.',
    );
    const lost = page.getByRole('list', { name: 'You will lose' });
    expect(await lost.getByRole('listitem').allTextContents()).toEqual([
      'The audit log: it is no longer shown.',
      'Experiments: they can no longer be created or changed.',
      'The 12 days left in your trial: the trial ends now.',
    ]);
    await shots(page, 'billing-checkout-free', over);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    expect(
      await page
        .getByRole('region', { name: 'Current Plan' })
        .getByText('Trial', { exact: true })
        .isVisible(),
    ).toBe(true);

    await page.getByRole('button', { name: 'Update Subscription' }).click();
    await page.getByText('Yearly', { exact: true }).click();
    await plan(page, 'Team').getByRole('button', { name: 'Buy Team' }).click();
    await page.getByRole('heading', { name: 'Confirm your plan' }).waitFor();
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe('/admin/billing/checkout?price=local-team-year');
    const summary = page.getByRole('table', { name: 'Your new plan' });
    expect(await summary.textContent()).toContain('Yearly');
    expect(await summary.textContent()).toContain('$16 per seat per month');
    // Two seats in use (the admin and the editor): $384 a year.
    expect(await summary.textContent()).toContain('$384 per year');
    // Buying the plan on trial loses nothing but the rest of the trial.
    expect(
      await page.getByRole('list', { name: 'You will lose' }).getByRole('listitem').allTextContents(),
    ).toEqual(['The 12 days left in your trial: the trial ends now.']);
    expect(await page.getByRole('list', { name: 'Over the Team plan’s limits' }).count()).toBe(0);
    await shots(page, 'billing-checkout');

    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You are now on the Team plan.').waitFor();
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    // Bought: the trial banner is gone, the plan's own limits apply and it is marked current.
    await page.getByText(/left in your trial/).waitFor({ state: 'detached' });
    const current = page.getByRole('region', { name: 'Current Plan' });
    await current.getByText('Active', { exact: true }).waitFor();
    await plan(page, 'Team').getByRole('button', { name: 'Team is your current plan' }).waitFor();
    expect(await usageRow(page, 'Features').textContent()).toContain('Unlimited');
    await closeToasts(page);
    await shots(page, 'billing-active');

    await page.goto('/projects/sp/environments/development/features');
    await page.getByRole('heading', { name: 'Features' }).waitFor();
    await page.getByRole('link', { name: 'Extra 1', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'New Feature' }).first().isDisabled()).toBe(false);
    await context.close();
  });
});

describe('Billing, with an inactive subscription', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        prepare: async (db) => {
          await addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR');
          await subscribe(db, 'inactive', TRIAL_LIMITS);
        },
      },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends an organisation admin to Billing, then says the account is inactive', async () => {
    const { context, page } = await openPage(browser, server.url);
    await context.addInitScript(recordInactiveTimes);
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/admin/billing');
    await inactiveToast(page).waitFor();
    // Shown 500 ms after the redirect, timed by the page's own clock: this process sees both late,
    // by however long the browser takes to tell it, which on a busy machine is hundreds of ms.
    const times = await page.evaluate(() => (window as unknown as InactiveTimesWindow).inactiveTimes);
    expect(times.redirectedAt).not.toBeNull();
    expect(times.toastAt! - times.redirectedAt!).toBeGreaterThanOrEqual(450);
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    expect(
      await page
        .getByRole('region', { name: 'Current Plan' })
        .getByText('Inactive', { exact: true })
        .isVisible(),
    ).toBe(true);
    await plan(page, 'Team').waitFor();
    await shots(page, 'billing-inactive-admin');

    // Once per load: the admin may then go elsewhere in the dashboard.
    await page.getByRole('link', { name: 'Vexil home' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('signs anyone else out, then says the account is inactive', async () => {
    const { context, page } = await signedIn(server, EDITOR);
    await page.waitForURL((url) => url.pathname === '/login' || url.pathname === `/${DEMO_DOMAIN}/login`);
    await inactiveToast(page).waitFor();
    await shots(page, 'billing-inactive-other');
    await context.close();
  });
});
