import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from '../../../testing/test-utils';
import { WALKTHROUGH_STEPS } from '../steps';
import { WelcomeWalkthrough } from './welcome-walkthrough';

const USER = { id: '00000000-0000-4000-8000-000000000001', firstName: 'Ada' };
const READ_PATH = `/api/v1/users/${USER.id}/settings/intro/read`;

/** The walkthrough over a page, with `page` in it; the intro/read call answered as the server does. */
function renderWalkthrough(page: React.ReactNode = null) {
  const calls = stubApi({
    [`PUT ${READ_PATH}`]: () => jsonResponse(200, { introReadDate: '2026-03-11T10:00:00.000Z' }),
  });
  const onClose = vi.fn();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {page}
            <WelcomeWalkthrough user={USER} onClose={onClose} />
          </>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <Providers queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const readCalls = () => calls.filter((call) => call.method === 'PUT' && call.path === READ_PATH);
  return { user: userEvent.setup(), onClose, readCalls, router };
}

const dialog = () => screen.getByRole('dialog');
const title = () => within(dialog()).getByRole('heading').textContent;
const button = (name: string) => within(dialog()).getByRole('button', { name });

describe('Welcome walkthrough', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('walks through every step with Next and Back, then Done marks the intro read', async () => {
    const { user, onClose, readCalls } = renderWalkthrough();

    expect(title()).toBe('Welcome to Vexil');
    expect(within(dialog()).getByText(/Hello Ada!/)).toBeVisible();
    expect(within(dialog()).getByText(`Step 1 of ${WALKTHROUGH_STEPS.length}`)).toBeVisible();
    expect(button('Back')).toHaveProperty('disabled', true);

    const titles = [title()];
    for (let step = 1; step < WALKTHROUGH_STEPS.length; step++) {
      await user.click(button('Next'));
      titles.push(title());
    }
    expect(titles).toEqual([
      'Welcome to Vexil',
      'Projects and environments',
      'Home',
      'The project menu',
      'Creating features',
      'Key, name and description',
      'The on/off switch',
      'Targeting',
      'Learn more',
    ]);
    // The last step has Done instead of Next, no Skip, and the docs link.
    expect(within(dialog()).queryByRole('button', { name: 'Next' })).toBeNull();
    expect(within(dialog()).queryByRole('button', { name: 'Skip' })).toBeNull();
    expect(within(dialog()).getByRole('link', { name: 'Read the docs' }).getAttribute('href')).toBe('/help');

    await user.click(button('Back'));
    expect(title()).toBe('Targeting');
    await user.click(button('Next'));
    expect(readCalls()).toHaveLength(0);
    await user.click(button('Done'));
    expect(onClose).toHaveBeenCalledOnce();
    expect(readCalls()).toHaveLength(1);
  });

  it.each([
    ['Skip', async (user: ReturnType<typeof userEvent.setup>) => user.click(button('Skip'))],
    [
      'the close button',
      async (user: ReturnType<typeof userEvent.setup>) => user.click(button('Close the welcome tour')),
    ],
    ['Escape', async (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}')],
  ])('marks the intro read when closed with %s', async (_way, closeIt) => {
    const { user, onClose, readCalls } = renderWalkthrough();
    await user.click(button('Next'));
    await closeIt(user);
    expect(onClose).toHaveBeenCalledOnce();
    expect(readCalls()).toHaveLength(1);
  });

  it('marks the intro read when the docs link leaves it', async () => {
    const { user, onClose, readCalls, router } = renderWalkthrough();
    for (let step = 1; step < WALKTHROUGH_STEPS.length; step++) await user.click(button('Next'));
    await user.click(within(dialog()).getByRole('link', { name: 'Read the docs' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(readCalls()).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/help');
  });

  it('points at an element of the navigation that is on screen, and centres a step whose element is not', async () => {
    const { user } = renderWalkthrough(<button data-tour="environment-menu">Development</button>);
    const target = screen.getByText('Development');
    target.getBoundingClientRect = () => ({
      top: 20,
      left: 300,
      width: 160,
      height: 40,
      bottom: 60,
      right: 460,
      x: 300,
      y: 20,
      toJSON: () => ({}),
    });
    const spotlight = () => screen.getByTestId('walkthrough-spotlight');

    // The welcome step is about no element: the whole page is dimmed.
    expect(spotlight().style.inset).toBe('0px');
    await user.click(button('Next'));
    expect(title()).toBe('Projects and environments');
    expect([spotlight().style.top, spotlight().style.left, spotlight().style.width]).toEqual([
      '14px',
      '294px',
      '172px',
    ]);
    // Home is not on screen here (as on a phone, where it is in the closed drawer): centred.
    await user.click(button('Next'));
    expect(title()).toBe('Home');
    expect(spotlight().style.inset).toBe('0px');
  });
});
