import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { auditPageFixture, DETAIL, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';

const AUDIT = `${DETAIL}/audit`;

describe('Audit tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it("lists the feature's audit items with relative time and date, markdown rendered safely", async () => {
    const page = auditPageFixture(0, ['Feature New checkout updated']);
    page.content[0]!.description =
      'admin@example\\.com updated **New checkout** (`checkout`):\n\n- name: <img src=x onerror="alert(1)"> [x](javascript:alert(1))';
    const { calls } = renderFeatureDetail(AUDIT, {
      handlers: { 'GET /api/v1/audit-items': () => jsonResponse(200, page) },
    });
    const log = await screen.findByRole('list', { name: 'Audit log' });
    const [item] = within(log)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === log);
    expect(within(item!).getByText('Feature New checkout updated')).toBeVisible();
    expect(within(item!).getByText(/^3 minutes ago · /)).toBeVisible();
    expect(item!.querySelector('strong')?.textContent).toBe('New checkout');
    expect(item!.querySelector('code')?.textContent).toBe('checkout');
    expect(item!.querySelector('img')).toBeNull();
    expect(item!.querySelector('a')).toBeNull();
    expect(
      within(item!).getByText('name: <img src=x onerror="alert(1)"> [x](javascript:alert(1))'),
    ).toBeVisible();
    expect(calls.find((c) => c.path.startsWith('/api/v1/audit-items'))?.path).toBe(
      '/api/v1/audit-items?projectKey=web&featureKey=checkout&page=0&pageSize=50',
    );
  });

  it('links an entry to the version its change created, in the History tab', async () => {
    const page = auditPageFixture(0, [
      'Targeting of New checkout in Production updated',
      'Feature New checkout updated',
    ]);
    page.content[0]!.version = {
      number: 4,
      projectKey: 'web',
      featureKey: 'checkout',
      environmentKey: 'production',
    };
    page.content[1]!.version = { number: 2, projectKey: 'web', featureKey: 'checkout', environmentKey: null };
    renderFeatureDetail(AUDIT, {
      handlers: { 'GET /api/v1/audit-items': () => jsonResponse(200, page) },
    });
    const control = await screen.findByRole('link', { name: 'Version 4 in the history' });
    expect(control).toHaveAttribute(
      'href',
      '/projects/web/environments/production/features/checkout/history',
    );
    // A feature's settings are in every environment: the project's address opens the feature's page.
    expect(screen.getByRole('link', { name: 'Version 2 in the history' })).toHaveAttribute(
      'href',
      '/projects/web/features/checkout/history',
    );
  });

  it('loads more pages until the last, and Refresh goes back to the first page', async () => {
    const { calls } = renderFeatureDetail(AUDIT, {
      handlers: {
        'GET /api/v1/audit-items': ({ url }) =>
          jsonResponse(
            200,
            url.searchParams.get('page') === '0'
              ? auditPageFixture(0, ['First change'], false)
              : auditPageFixture(1, ['Older change'], true),
          ),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText('First change')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByText('Older change')).toBeVisible();
    expect(screen.getByText('First change')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByText('Older change')).toBeNull());
    expect(await screen.findByText('First change')).toBeVisible();
    const pages = calls
      .filter((c) => c.path.startsWith('/api/v1/audit-items'))
      .map((c) => c.path.match(/page=(\d+)/)?.[1]);
    expect(pages).toEqual(['0', '1', '0']);
  });

  it('says when the plan has no audit log, with a way to upgrade', async () => {
    renderFeatureDetail(AUDIT, {
      handlers: {
        'GET /api/v1/audit-items': () =>
          jsonResponse(403, { title: 'Audit logs are not available on your current plan.' }),
      },
    });
    expect(await screen.findByText('Audit logs are not available with the current plan.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
    // The tab explains it: no error toast repeats it.
    expect(screen.queryByText('Audit logs are not available on your current plan.')).toBeNull();
  });
});
