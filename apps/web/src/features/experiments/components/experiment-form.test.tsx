import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { Button } from '@mantine/core';
import { jsonResponse } from '../../../testing/test-utils';
import type { Experiment } from '@vexil/core';
import { defaultVariants, DESIGN_LOCKED_MESSAGE, openExperimentForm } from './experiment-form';
import {
  BANNER,
  CHECKOUT,
  DEVELOPMENT,
  experimentFixture,
  PRODUCTION,
  renderScreen,
  resetOverlays,
  runningFixture,
  serveExperiments,
} from '../../../testing/experiments-test-server';

function renderForm(options: { experiment?: Experiment; environment?: typeof DEVELOPMENT } = {}) {
  const environment = options.environment ?? DEVELOPMENT;
  const rendered = renderScreen(
    <Button
      onClick={() => openExperimentForm({ projectKey: 'web', environment, experiment: options.experiment })}
    >
      Open
    </Button>,
    '*',
    '/',
  );
  return rendered;
}

async function openForm(options: Parameters<typeof renderForm>[0] = {}) {
  const rendered = renderForm(options);
  await rendered.user.click(screen.getByRole('button', { name: 'Open' }));
  const dialog = await screen.findByRole('dialog', {
    name: options.experiment ? 'Edit Experiment' : 'New Experiment',
  });
  return { ...rendered, modal: within(dialog) };
}

type Modal = Awaited<ReturnType<typeof openForm>>['modal'];
type User = Awaited<ReturnType<typeof openForm>>['user'];

/** A text box, or one of Mantine's selects (a combobox whose value is the chosen option's label). */
const input = (modal: Modal, name: string) =>
  (modal.queryByRole('textbox', { name: new RegExp(`^${name}`) }) ??
    modal.getByRole('combobox', { name: new RegExp(`^${name}`) })) as HTMLInputElement;
const selectValue = (modal: Modal, label: string) => input(modal, label).value;

async function chooseFeature(user: User, modal: Modal, text: string, option: string) {
  const field = input(modal, 'Feature');
  await user.click(field);
  await user.clear(field);
  await user.type(field, text);
  await user.click(await screen.findByRole('option', { name: new RegExp(`^${option}`) }));
}

async function chooseOption(user: User, modal: Modal, label: string, option: string) {
  await user.click(input(modal, label));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Experiment form', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('names every missing field and sends nothing', async () => {
    const { calls } = serveExperiments();
    const { user, modal } = await openForm();

    await user.click(modal.getByRole('button', { name: 'Save experiment' }));

    expect(await modal.findByText('Name is required')).toBeVisible();
    expect(modal.getByText('Feature is required')).toBeVisible();
    expect(modal.getByText('Control variant is required')).toBeVisible();
    expect(modal.getByText('Alternate variant is required')).toBeVisible();
    expect(modal.getByText('Goal Key is required')).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("fills the variants from the chosen feature's, and starts again when the feature changes", async () => {
    serveExperiments();
    const { user, modal } = await openForm();
    expect((input(modal, 'Control variant') as HTMLInputElement).disabled).toBe(true);

    await chooseFeature(user, modal, 'check', 'New checkout');
    await waitFor(() => expect(selectValue(modal, 'Control variant')).toBe('Off (off)'));
    expect(selectValue(modal, 'Alternate variant')).toBe('On (on)');
    await user.click(input(modal, 'Alternate variant'));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'On (on)',
      'Off (off)',
      'Blue (blue)',
    ]);
    await user.click(screen.getByRole('option', { name: 'Blue (blue)' }));
    expect(selectValue(modal, 'Alternate variant')).toBe('Blue (blue)');

    await chooseFeature(user, modal, 'summer', 'Summer banner');
    await waitFor(() => expect(selectValue(modal, 'Control variant')).toBe('Red (red)'));
    expect(selectValue(modal, 'Alternate variant')).toBe('Green (green)');
  });

  it('refuses the same variant on both sides', async () => {
    const { calls } = serveExperiments();
    const { user, modal } = await openForm();
    await user.type(input(modal, 'Name'), 'Same');
    await chooseFeature(user, modal, 'check', 'New checkout');
    await user.type(input(modal, 'Goal key'), 'signup');
    await chooseOption(user, modal, 'Alternate variant', 'Off (off)');

    await user.click(modal.getByRole('button', { name: 'Save experiment' }));
    expect(
      await modal.findByText('The alternate variant must differ from the control variant.'),
    ).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('suggests the goals SDKs reported and shows the key as it is saved', async () => {
    const { calls } = serveExperiments();
    const { user, modal } = await openForm();

    await user.type(input(modal, 'Goal key'), 'Checkout');
    expect(await screen.findByRole('option', { name: /checkout-completed/ })).toBeVisible();
    expect(screen.getByText('Checkout completed')).toBeVisible();
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/v1/goals?projectKey=web&query=Checkout')).toBe(true),
    );
    await user.type(input(modal, 'Goal key'), ' Done!');
    expect(modal.getByText('checkout-done')).toBeVisible();
    expect(modal.getByText(/Saved as/)).toBeVisible();
  });

  it('creates an experiment with the cleaned goal key, says it is saved and closes', async () => {
    const { calls } = serveExperiments();
    const { user, modal } = await openForm();

    await user.type(input(modal, 'Name'), 'Banner colours');
    await user.type(modal.getByRole('textbox', { name: 'Description' }), 'Does green sell more?');
    await chooseFeature(user, modal, 'summer', 'Summer banner');
    await user.type(input(modal, 'Goal key'), 'Added To Cart');
    await user.click(modal.getByRole('radio', { name: /Sequential/ }));
    await user.click(modal.getByRole('switch', { name: /^Enabled/ }));
    await user.click(modal.getByRole('button', { name: 'Save experiment' }));

    expect(await screen.findByText('Banner colours saved.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      projectKey: 'web',
      environmentKey: 'dev',
      name: 'Banner colours',
      description: 'Does green sell more?',
      featureId: BANNER.id,
      control: 'red',
      variation: 'green',
      goalKey: 'added-to-cart',
      mode: 'sequential',
      enabled: true,
    });
  });

  it("shows the server's field errors on their fields and keeps everything typed", async () => {
    const { calls } = serveExperiments({
      handlers: {
        'POST /api/v1/experiments/': () =>
          jsonResponse(400, {
            title: 'The experiment is not valid.',
            errors: [
              { field: 'control', message: 'off is not a variant of this feature' },
              { field: 'goalKey', message: 'Goal Key is required' },
            ],
          }),
      },
    });
    const { user, modal } = await openForm();
    await user.type(input(modal, 'Name'), 'Checkout test');
    await chooseFeature(user, modal, 'check', 'New checkout');
    await user.type(input(modal, 'Goal key'), 'signup');
    await user.click(modal.getByRole('button', { name: 'Save experiment' }));

    expect(await modal.findByRole('alert')).toBeVisible();
    expect(modal.getByRole('alert').textContent).toContain('The experiment is not valid.');
    expect(modal.getByText('off is not a variant of this feature')).toBeVisible();
    expect(modal.getByText('Goal Key is required')).toBeVisible();
    expect(input(modal, 'Name').value).toBe('Checkout test');
    expect(input(modal, 'Feature').value).toBe('New checkout');
    expect(input(modal, 'Goal key').value).toBe('signup');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('offers to upgrade when the plan does not include experiments', async () => {
    const { calls } = serveExperiments({
      handlers: {
        'POST /api/v1/experiments/': () =>
          jsonResponse(403, { title: 'Your plan does not include experiments.', code: 'plan_required' }),
      },
    });
    const { user, modal } = await openForm();
    await user.type(input(modal, 'Name'), 'Checkout test');
    await chooseFeature(user, modal, 'check', 'New checkout');
    await user.type(input(modal, 'Goal key'), 'signup');
    await user.click(modal.getByRole('button', { name: 'Save experiment' }));

    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    const alert = await modal.findByRole('alert');
    expect(alert.textContent).toContain('Your plan does not include experiments.');
    expect(within(alert).getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('edits an experiment as it is stored, its variants loaded from its feature, and saves it with its id', async () => {
    const experiment = experimentFixture('Checkout test', {
      control: 'on',
      variation: 'blue',
      goalKey: 'signup',
    });
    const { calls } = serveExperiments({ experiments: [experiment] });
    const { user, modal } = await openForm({ experiment });

    expect(input(modal, 'Name').value).toBe('Checkout test');
    expect(input(modal, 'Feature').value).toBe('New checkout');
    await waitFor(() => expect(selectValue(modal, 'Control variant')).toBe('On (on)'));
    expect(selectValue(modal, 'Alternate variant')).toBe('Blue (blue)');
    expect(input(modal, 'Goal key').value).toBe('signup');
    expect((modal.getByRole('radio', { name: /Fixed/ }) as HTMLInputElement).checked).toBe(true);

    await user.clear(input(modal, 'Name'));
    await user.type(input(modal, 'Name'), 'Checkout test 2');
    await user.click(modal.getByRole('button', { name: 'Save experiment' }));
    expect(await screen.findByText('Checkout test 2 saved.')).toBeVisible();
    expect(calls.find((call) => call.method === 'PUT')!.body).toMatchObject({
      id: experiment.id,
      name: 'Checkout test 2',
      featureId: CHECKOUT.id,
      control: 'on',
      variation: 'blue',
      goalKey: 'signup',
    });
  });

  it('keeps what a started experiment measures, and lets its name and switch change', async () => {
    serveExperiments();
    const { modal } = await openForm({ experiment: runningFixture('Checkout test') });
    expect(modal.getByText(DESIGN_LOCKED_MESSAGE)).toBeVisible();
    for (const label of ['Feature', 'Control variant', 'Alternate variant', 'Goal key']) {
      expect(input(modal, label).disabled).toBe(true);
    }
    expect((modal.getByRole('radio', { name: /Sequential/ }) as HTMLInputElement).disabled).toBe(true);
    expect(input(modal, 'Name').disabled).toBe(false);
    expect((modal.getByRole('switch', { name: /^Enabled/ }) as HTMLInputElement).disabled).toBe(false);
  });

  it('asks before starting an experiment in production', async () => {
    const experiment = experimentFixture('Checkout test', { environmentKey: 'production' });
    const { calls } = serveExperiments({ experiments: [experiment] });
    const { user, modal } = await openForm({ experiment, environment: PRODUCTION });

    await user.click(modal.getByRole('switch', { name: /^Enabled/ }));
    await user.click(modal.getByRole('button', { name: 'Save experiment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    await user.click(within(dialog).getByRole('button', { name: 'Start experiment' }));
    expect(await screen.findByText('Checkout test saved.')).toBeVisible();
    expect((calls.find((call) => call.method === 'PUT')!.body as { enabled: boolean }).enabled).toBe(true);
  });
});

describe('defaultVariants', () => {
  it('compares "on" against "off" when the feature has them, else its first two variants', () => {
    expect(defaultVariants([{ key: 'on' }, { key: 'off' }])).toEqual({ control: 'off', variation: 'on' });
    expect(defaultVariants([{ key: 'a' }, { key: 'b' }, { key: 'c' }])).toEqual({
      control: 'a',
      variation: 'b',
    });
    expect(defaultVariants([{ key: 'only' }])).toEqual({ control: 'only', variation: '' });
  });
});
