import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { allFlagsOn, initialPayload, jsonResponse } from '../../../testing/test-utils';
import {
  billingPayload,
  cardInfo,
  growth,
  renderBilling,
  resetOverlays,
  serveBilling,
  subscriptionFixture,
  team,
  usageFixture,
} from '../../../testing/billing-test-server';

const plan = (name: string) => screen.getByRole('article', { name: `${name} plan` });
const usageRow = (label: string) =>
  within(screen.getByRole('table', { name: 'Usage' }))
    .getByRole('rowheader', { name: label })
    .closest('tr')!;
const limitOf = (label: string) =>
  within(
    within(screen.getByRole('table', { name: 'Plan limits' }))
      .getByRole('rowheader', { name: label })
      .closest('tr')!,
  ).getAllByRole('cell')[0]!.textContent;

describe('Billing tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('says it is retrieving the billing information until it has loaded', async () => {
    let answer: (response: Response) => void = () => undefined;
    serveBilling({
      handlers: { 'GET /api/v1/billing/info': () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    renderBilling();
    expect(await screen.findByText('Retrieving billing information...')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Billing Information' })).toBeNull();

    answer(jsonResponse(200, cardInfo));
    expect(await screen.findByRole('heading', { name: 'Billing Information' })).toBeVisible();
    expect(screen.queryByText('Retrieving billing information...')).toBeNull();
  });

  it('tells others than organisation admins that billing is for admins, without asking the server', async () => {
    const payload = billingPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    const calls = serveBilling({ payload });
    renderBilling();
    expect(await screen.findByText('Only organisation admins may manage billing...')).toBeVisible();
    expect(calls.filter((call) => call.path.includes('billing') || call.path.includes('products'))).toEqual(
      [],
    );
  });

  it('says when the account has no billing information', async () => {
    serveBilling();
    renderBilling();
    expect(await screen.findByText('This account has no billing information')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Manage Billing Details' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Update Subscription' })).toBeVisible();
  });

  it('shows the card, billing e-mail, name and phone', async () => {
    serveBilling({ info: cardInfo });
    renderBilling();
    const card = (await screen.findByRole('heading', { name: 'Billing Information' })).closest('section')!;
    expect(within(card).getByText('Visa •••• 4242')).toBeVisible();
    expect(within(card).getByText('billing@example.com')).toBeVisible();
    expect(within(card).getByText('Ada Lovelace')).toBeVisible();
    expect(within(card).getByText('+44 20 7946 0000')).toBeVisible();
    expect(within(card).queryByText('This account has no billing information')).toBeNull();
  });

  it('shows the current plan with its price per seat per month, seats and total', async () => {
    serveBilling();
    renderBilling();
    const current = (await screen.findByRole('heading', { name: 'Current Plan' })).closest('section')!;
    expect(within(current).getByText('Team')).toBeVisible();
    expect(within(current).getByText('Active')).toBeVisible();
    expect(within(current).getByText('$20')).toBeVisible();
    expect(within(current).getByText('per seat per month')).toBeVisible();
    expect(within(current).getByText('2 seats · $40 per month')).toBeVisible();
  });

  it('offers a Free card, a card per product and an Enterprise card with Contact us', async () => {
    serveBilling({ products: [team, growth] });
    renderBilling();
    await screen.findByRole('heading', { name: 'Plans' });
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual([
      'Free plan',
      'Team plan',
      'Growth plan',
      'Enterprise plan',
    ]);
    expect(within(plan('Free')).getByText('A single seat')).toBeVisible();
    expect(within(plan('Free')).getByText('1 project')).toBeVisible();
    expect(within(plan('Free')).getByText('2 environments')).toBeVisible();
    expect(within(plan('Team')).getByText('Audit log')).toBeVisible();
    const contact = within(plan('Enterprise')).getByRole('link', { name: 'Contact us' });
    expect(contact.getAttribute('href')).toMatch(/^mailto:/);
  });

  it('shows monthly prices per seat per month, and yearly ones divided by 12', async () => {
    serveBilling({ products: [team, growth] });
    renderBilling();
    await screen.findByRole('heading', { name: 'Plans' });
    expect(within(plan('Team')).getByText('$20')).toBeVisible();
    expect(within(plan('Team')).getByText('per seat per month')).toBeVisible();
    expect(within(plan('Growth')).getByText('$49.50')).toBeVisible();
    // The current plan, monthly, is not offered again.
    expect(within(plan('Team')).getByRole('button', { name: 'Team is your current plan' })).toHaveProperty(
      'disabled',
      true,
    );

    await userEvent.setup().click(screen.getByRole('radio', { name: 'Yearly' }));
    // 19,200 cents a year: $192, $16 a month.
    expect(within(plan('Team')).getByText('$16')).toBeVisible();
    expect(within(plan('Team')).getByText('per seat per month, billed yearly ($192 a seat)')).toBeVisible();
    expect(within(plan('Team')).getByRole('button', { name: 'Choose Team' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(within(plan('Growth')).getByText('Not sold yearly')).toBeVisible();
    expect(within(plan('Growth')).queryByRole('button')).toBeNull();
  });

  it('lists the plan limits, Unlimited when none is set, with thousands separators', async () => {
    serveBilling();
    renderBilling();
    await screen.findByRole('table', { name: 'Plan limits' });
    expect(limitOf('Seats')).toBe('Unlimited');
    expect(limitOf('Projects')).toBe('10');
    expect(limitOf('Environments')).toBe('50');
    expect(limitOf('Features')).toBe('Unlimited');
    expect(limitOf('Application users a month')).toBe('100,000');
    expect(limitOf('Impressions a month')).toBe('10,000,000');
    expect(limitOf('Audit log')).toBe('Included');
    expect(limitOf('Experiments')).toBe('Included');
  });

  it('shows application users and impressions only with the impressions-limits flag', async () => {
    serveBilling({
      payload: initialPayload({
        subscription: subscriptionFixture(),
        flags: { ...allFlagsOn, 'impressions-limits': false },
      }),
    });
    renderBilling();
    await screen.findByRole('table', { name: 'Usage' });
    expect(screen.queryByRole('rowheader', { name: /Application users/ })).toBeNull();
    expect(screen.queryByRole('rowheader', { name: /Impressions/ })).toBeNull();
    expect(screen.getAllByRole('rowheader', { name: 'Features' })).toHaveLength(2);
  });

  it('turns a usage bar to warning at 90 % and to danger at 100 % of its limit', async () => {
    serveBilling({
      usage: usageFixture({
        projectsUsed: 9,
        environmentsUsed: 50,
        applicationUniqueUsersUsed: 89_999,
        impressionsUsed: 12_000_000,
      }),
      payload: billingPayload(
        subscriptionFixture({ limits: { ...subscriptionFixture().limits, maxOrganisationUsers: 5 } }),
      ),
    });
    renderBilling();
    await screen.findByRole('table', { name: 'Usage' });
    const bar = (label: string) =>
      within(usageRow(label)).getByRole('progressbar', { name: `${label} used` }).parentElement!;

    expect(usageRow('Seats').getAttribute('data-level')).toBe('ok');
    expect(within(usageRow('Seats')).getByText('2 of 5')).toBeVisible();
    expect(usageRow('Projects').getAttribute('data-level')).toBe('warning');
    expect(within(usageRow('Projects')).getByText('Nearly at the limit')).toBeVisible();
    expect(bar('Projects').innerHTML).toContain('yellow');
    expect(usageRow('Environments').getAttribute('data-level')).toBe('danger');
    expect(within(usageRow('Environments')).getByText('Limit reached')).toBeVisible();
    expect(bar('Environments').innerHTML).toContain('red');
    expect(usageRow('Application users this month').getAttribute('data-level')).toBe('ok');
    expect(within(usageRow('Application users this month')).getByText('89,999 of 100,000')).toBeVisible();
    expect(usageRow('Impressions this month').getAttribute('data-level')).toBe('danger');
    expect(within(usageRow('Impressions this month')).getByText('12,000,000 of 10,000,000')).toBeVisible();
    // No limit: the count alone, without a bar.
    expect(within(usageRow('Features')).getByText('12')).toBeVisible();
    expect(within(usageRow('Features')).getByText('Unlimited')).toBeVisible();
    expect(within(usageRow('Features')).queryByRole('progressbar')).toBeNull();
  });

  it('shows the monthly warnings the server sends', async () => {
    serveBilling({
      usage: usageFixture({
        impressionsUsed: 12_000_000,
        warnings: [
          {
            key: 'maxImpressions',
            used: 12_000_000,
            limit: 10_000_000,
            message: 'This month’s impressions have passed the plan’s 10,000,000.',
          },
        ],
      }),
    });
    renderBilling();
    expect(
      await screen.findByText('This month’s impressions have passed the plan’s 10,000,000.'),
    ).toBeVisible();
  });

  it('says how many days of the trial are left', async () => {
    serveBilling({
      payload: billingPayload(subscriptionFixture({ inTrial: true, daysUntilEndOfTrial: 12 })),
    });
    renderBilling();
    const current = (await screen.findByRole('heading', { name: 'Current Plan' })).closest('section')!;
    expect(within(current).getByText('Trial')).toBeVisible();
    expect(within(current).getByText(/Your trial ends in 12 days\./)).toBeVisible();
  });

  it('says when the account is inactive', async () => {
    serveBilling({ payload: billingPayload(subscriptionFixture({ status: 'inactive' })) });
    renderBilling();
    const current = (await screen.findByRole('heading', { name: 'Current Plan' })).closest('section')!;
    expect(within(current).getByText('Inactive')).toBeVisible();
    expect(
      within(current).getByText('Your account is inactive. Please purchase a subscription.'),
    ).toBeVisible();
    // Whatever plan the account was on can be bought again.
    await screen.findByRole('article', { name: 'Team plan' });
    expect(within(plan('Team')).getByRole('button', { name: 'Choose Team' })).toBeVisible();
  });

  it('says when the organisation has no subscription, with the usage and no limits', async () => {
    serveBilling({ payload: billingPayload(null) });
    renderBilling();
    expect(
      await screen.findByText('This organisation has no subscription, so no plan limits apply.'),
    ).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Plan limits' })).toBeNull();
    expect(within(usageRow('Projects')).getByText('Unlimited')).toBeVisible();
  });
});
