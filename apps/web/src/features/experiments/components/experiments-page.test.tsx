import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { AUTHORITIES } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import { ExperimentsPage, type ExperimentsPageProps } from './experiments-page';
import {
  ADMIN,
  DEVELOPMENT,
  experimentFixture,
  PRODUCTION,
  PROJECT,
  renderScreen,
  resetOverlays,
  runningFixture,
  serveExperiments,
  userWith,
} from '../../../testing/experiments-test-server';

function renderPage(props: Partial<ExperimentsPageProps> = {}) {
  const environment = props.environment ?? DEVELOPMENT;
  return renderScreen(
    <ExperimentsPage project={PROJECT} environment={environment} user={ADMIN} {...props} />,
    '/projects/:projectKey/environments/:environmentKey/experiments',
    `/projects/web/environments/${environment.key}/experiments`,
  );
}

const table = () => screen.getByRole('table', { name: /^Experiments in / });
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('Experiments page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lists each experiment with its feature, goal, variants, state and the buttons its state allows', async () => {
    const running = runningFixture('One-page checkout', 3, {
      description: 'Fewer steps',
      results: { validResult: true, winningVariation: 'on' },
    });
    const finished = experimentFixture('Old banner test', {
      startDate: '2026-01-01T00:00:00.000Z',
      endDate: '2026-01-15T00:00:00.000Z',
      goalKey: 'signup',
      control: 'on',
      variation: 'blue',
    });
    const draft = experimentFixture('Next idea');
    serveExperiments({ experiments: [draft, running, finished] });
    renderPage();

    expect(screen.getByRole('heading', { name: 'Experiments' })).toBeVisible();
    expect(screen.getByText('Conversion experiments in Web shop / Development')).toBeVisible();
    await screen.findByText('One-page checkout');
    const rows = within(table()).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Next idea',
      'One-page checkoutFewer steps',
      'Old banner test',
    ]);

    const runningRow = within(rowOf('One-page checkout'));
    expect(runningRow.getByRole('link', { name: 'New checkout' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/features/checkout',
    );
    expect(runningRow.getByText('checkout-completed')).toBeVisible();
    expect(runningRow.getByLabelText('Control off, alternate on')).toBeVisible();
    expect(runningRow.getByText('Running')).toBeVisible();
    expect(runningRow.getByText('on is winning')).toBeVisible();
    expect(
      (runningRow.getByRole('switch', { name: 'One-page checkout enabled' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(runningRow.getByRole('link', { name: 'Stats of One-page checkout' }).getAttribute('href')).toBe(
      `/projects/web/environments/dev/experiments/${running.id}/stats`,
    );

    const finishedRow = within(rowOf('Old banner test'));
    expect(finishedRow.getByText('Finished')).toBeVisible();
    expect(finishedRow.getByLabelText('Control on, alternate blue')).toBeVisible();
    expect(finishedRow.getByRole('link', { name: 'Stats of Old banner test' })).toBeVisible();

    const draftRow = within(rowOf('Next idea'));
    expect(draftRow.getByText('Not started')).toBeVisible();
    expect(draftRow.queryByRole('link', { name: /^Stats/ })).toBeNull();
    expect(draftRow.getByRole('button', { name: 'Edit Next idea' })).toBeVisible();
    expect(draftRow.getByRole('button', { name: 'Archive Next idea' })).toBeVisible();
  });

  it('says there are no experiments yet, with New Experiment, when the environment has none', async () => {
    serveExperiments();
    renderPage();

    expect(await screen.findByText('No experiments yet')).toBeVisible();
    // One in the header, one in the empty state.
    expect(screen.getAllByRole('button', { name: 'New Experiment' })).toHaveLength(2);
  });

  it('shows skeletons while loading and the reason with Retry when loading fails', async () => {
    let fail = true;
    serveExperiments({
      handlers: {
        'GET /api/v1/experiments/': () =>
          fail
            ? jsonResponse(500, { title: 'Something went wrong on our side.' })
            : jsonResponse(200, [experimentFixture('Back again')]),
      },
    });
    const { user } = renderPage();
    expect(screen.getAllByTestId('experiment-skeleton').length).toBeGreaterThan(0);

    const alert = (await screen.findByText('We could not load the experiments.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Back again')).toBeVisible();
  });

  it('disables New Experiment, the switches, Edit and Archive for a read-only user, saying why', async () => {
    serveExperiments({ experiments: [experimentFixture('Next idea')] });
    renderPage({ user: userWith(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER) });
    await screen.findByText('Next idea');

    const reason = 'You do not have permission to change experiments.';
    const button = screen.getByRole('button', { name: 'New Experiment' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.closest(`[aria-label="${reason}"]`)).toBeVisible();
    const row = within(rowOf('Next idea'));
    expect((row.getByRole('switch', { name: 'Next idea enabled' }) as HTMLInputElement).disabled).toBe(true);
    expect((row.getByRole('button', { name: 'Edit Next idea' }) as HTMLButtonElement).disabled).toBe(true);
    expect((row.getByRole('button', { name: 'Archive Next idea' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('tells an editor in production that only a production editor may change experiments there', async () => {
    serveExperiments();
    renderPage({ environment: PRODUCTION, user: userWith(AUTHORITIES.ROLE_ORGANISATION_EDITOR) });
    await screen.findByText('No experiments yet');
    const reason = 'Only a production editor can change experiments in a production environment.';
    for (const button of screen.getAllByRole('button', { name: 'New Experiment' })) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(button.closest(`[aria-label="${reason}"]`)).toBeVisible();
    }
  });

  it('starts an experiment with a PUT of the whole experiment, and shows it running', async () => {
    const draft = experimentFixture('Next idea', { description: 'Try it', mode: 'sequential' });
    const { calls } = serveExperiments({ experiments: [draft] });
    const { user } = renderPage();
    await screen.findByText('Next idea');

    await user.click(screen.getByRole('switch', { name: 'Next idea enabled' }));

    expect(await screen.findByText('Next idea is running.')).toBeVisible();
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      id: draft.id,
      projectKey: 'web',
      environmentKey: 'dev',
      name: 'Next idea',
      description: 'Try it',
      goalKey: 'checkout-completed',
      featureId: draft.featureId,
      control: 'off',
      variation: 'on',
      enabled: true,
      mode: 'sequential',
    });
    await waitFor(() => expect(within(rowOf('Next idea')).getByText('Running')).toBeVisible());
    expect(within(rowOf('Next idea')).getByRole('link', { name: 'Stats of Next idea' })).toBeVisible();
  });

  it('asks before switching an experiment in production, and sends nothing when cancelled', async () => {
    const running = runningFixture('Checkout test', 2, { environmentKey: 'production' });
    const { calls } = serveExperiments({ experiments: [running] });
    const { user } = renderPage({ environment: PRODUCTION });
    await screen.findByText('Checkout test');

    await user.click(screen.getByRole('switch', { name: 'Checkout test enabled' }));
    let dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    expect(
      within(dialog).getByText(
        'Warning, this is a production environment. Are you sure you wish to update Checkout test in Production?',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.click(screen.getByRole('switch', { name: 'Checkout test enabled' }));
    dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    await user.click(within(dialog).getByRole('button', { name: 'Stop experiment' }));
    expect(await screen.findByText('Checkout test has finished.')).toBeVisible();
    expect((calls.find((call) => call.method === 'PUT')!.body as { enabled: boolean }).enabled).toBe(false);
    await waitFor(() => expect(within(rowOf('Checkout test')).getByText('Finished')).toBeVisible());
  });

  it('puts the switch back and says why when the server refuses', async () => {
    serveExperiments({
      experiments: [experimentFixture('Next idea')],
      handlers: {
        'PUT /api/v1/experiments/': () =>
          jsonResponse(403, { title: 'Your plan does not include experiments.', code: 'plan_required' }),
      },
    });
    const { user } = renderPage();
    await screen.findByText('Next idea');

    await user.click(screen.getByRole('switch', { name: 'Next idea enabled' }));
    expect(
      await screen.findByText(
        'We encountered an error, the experiment was not saved. Your plan does not include experiments.',
      ),
    ).toBeVisible();
    expect((screen.getByRole('switch', { name: 'Next idea enabled' }) as HTMLInputElement).checked).toBe(
      false,
    );
  });

  it('archives an experiment only once confirmed', async () => {
    const draft = experimentFixture('Next idea');
    const other = experimentFixture('Keep me');
    const { calls } = serveExperiments({ experiments: [draft, other] });
    const { user } = renderPage();
    await screen.findByText('Next idea');

    await user.click(screen.getByRole('button', { name: 'Archive Next idea' }));
    let dialog = await screen.findByRole('dialog', { name: 'Archive Experiment' });
    expect(within(dialog).getByText(/Archive the experiment "Next idea"\?/)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Archive Next idea' }));
    dialog = await screen.findByRole('dialog', { name: 'Archive Experiment' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive experiment' }));
    expect(await screen.findByText('Experiment archived.')).toBeVisible();
    expect(calls.find((call) => call.method === 'DELETE')!.path).toBe(`/api/v1/experiments/${draft.id}`);
    await waitFor(() => expect(screen.queryByText('Next idea')).toBeNull());
    expect(screen.getByText('Keep me')).toBeVisible();
  });

  it('opens the New Experiment and Edit Experiment forms', async () => {
    serveExperiments({ experiments: [experimentFixture('Next idea')] });
    const { user } = renderPage();
    await screen.findByText('Next idea');

    await user.click(screen.getByRole('button', { name: 'New Experiment' }));
    expect(await screen.findByRole('dialog', { name: 'New Experiment' })).toBeVisible();
    resetOverlays();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Edit Next idea' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Experiment' });
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      'Next idea',
    );
  });
});
