import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { Feature } from '@vexil/core';
import { FlagsProvider } from '../../../lib/flags';
import { SessionProvider } from '../../../lib/session';
import {
  allFlagsOn,
  createTestQueryClient,
  initialPayload,
  jsonResponse,
  Providers,
  stubApi,
} from '../../../testing/test-utils';
import { featureFixture } from '../../../testing/test-fixtures';
import { IssueLinks } from './issue-links';

const ISSUES = '/api/v1/integrations/jira/issues';

/** The links with flag jira-integration `jira`, in an organisation with (`connected`) or without Jira. */
function renderLinks(feature: Feature, jira = true, connected = true) {
  const session = initialPayload();
  session.organisation = { ...session.organisation, settings: { jiraEnabled: connected } };
  return render(
    <Providers queryClient={createTestQueryClient()}>
      <SessionProvider session={session}>
        <FlagsProvider flags={{ ...allFlagsOn, 'jira-integration': jira }}>
          <IssueLinks feature={feature} />
        </FlagsProvider>
      </SessionProvider>
    </Providers>,
  );
}

const items = () => within(screen.getByRole('list', { name: 'Issues' })).getAllByRole('listitem');

describe('feature issue links', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows each issue’s key and title, linking to its page', () => {
    const calls = stubApi({});
    renderLinks(featureFixture());
    const link = screen.getByRole('link', { name: 'SHOP-12 Checkout redesign' });
    expect(link.getAttribute('href')).toBe('https://issues.example.com/SHOP-12');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // Known already: Jira is not asked.
    expect(calls).toEqual([]);
  });

  it('asks Jira for a title the feature does not know yet', async () => {
    const calls = stubApi({
      [`GET ${ISSUES}/SHOP-40`]: () =>
        jsonResponse(200, {
          key: 'SHOP-40',
          title: 'Faster search',
          url: 'https://acme.atlassian.net/browse/SHOP-40',
        }),
    });
    renderLinks(
      featureFixture({ jiraIssues: [{ key: 'SHOP-40', title: '', url: '' }], jiraIssueKeys: ['SHOP-40'] }),
    );
    const link = await screen.findByRole('link', { name: 'SHOP-40 Faster search' });
    expect(link.getAttribute('href')).toBe('https://acme.atlassian.net/browse/SHOP-40');
    expect(calls.map((c) => c.path)).toEqual([`${ISSUES}/SHOP-40`]);
  });

  it('shows the bare key when Jira cannot tell, and links it when its page is known', async () => {
    stubApi({
      [`GET ${ISSUES}/SHOP-41`]: () => jsonResponse(404, { title: 'Jira has no issue SHOP-41.' }),
      [`GET ${ISSUES}/SHOP-42`]: () =>
        // Jira unreachable: the server answers the key and its page, without a title.
        jsonResponse(200, { key: 'SHOP-42', title: '', url: 'https://acme.atlassian.net/browse/SHOP-42' }),
    });
    renderLinks(
      featureFixture({
        jiraIssues: [
          { key: 'SHOP-41', title: '', url: '' },
          { key: 'SHOP-42', title: '', url: '' },
        ],
        jiraIssueKeys: ['SHOP-41', 'SHOP-42'],
      }),
    );
    const link = await screen.findByRole('link', { name: 'SHOP-42' });
    expect(link.getAttribute('href')).toBe('https://acme.atlassian.net/browse/SHOP-42');
    await waitFor(() => expect(items()[0]!.textContent).toBe('SHOP-41'));
    expect(within(items()[0]!).queryByRole('link')).toBeNull();
    // No toast: a missing title is not an error the user can act on.
    expect(screen.queryByText('Jira has no issue SHOP-41.')).toBeNull();
  });

  it('does not ask without flag jira-integration', () => {
    const calls = stubApi({});
    renderLinks(featureFixture({ jiraIssues: [], jiraIssueKeys: ['SHOP-43'] }), false);
    expect(items()[0]!.textContent).toBe('SHOP-43');
    expect(calls).toEqual([]);
  });

  it('does not ask when the organisation has no Jira connected: the bare key shows, no 404', () => {
    const calls = stubApi({
      [`GET ${ISSUES}/SHOP-44`]: () => jsonResponse(404, { title: 'Jira is not connected.' }),
    });
    renderLinks(featureFixture({ jiraIssues: [], jiraIssueKeys: ['SHOP-44'] }), true, false);
    expect(items()[0]!.textContent).toBe('SHOP-44');
    expect(calls).toEqual([]);
  });
});
