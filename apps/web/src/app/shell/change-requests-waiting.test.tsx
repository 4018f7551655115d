import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { initialPayload, jsonResponse, renderRoute, stubApi } from '../../testing/test-utils';
import { HomePage } from '../routes/home-page';

const shellRoutes: RouteObject[] = [{ path: '/', element: <HomePage /> }];

function renderShell(count: number) {
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
    'GET /api/v1/change-requests/waiting': () => jsonResponse(200, { count }),
  });
  renderRoute(shellRoutes, '/', { shell: true });
  return calls;
}

describe('change requests waiting in the top navigation', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows how many wait for the user’s review, leading to the current project’s To review', async () => {
    renderShell(3);
    // The desktop bar's Change requests icon counts them; a phone's bar has a badge of its own (the
    // breakpoints' CSS does not apply here, so both are in the document).
    const links = await screen.findAllByRole('link', { name: '3 change requests wait for your review' });
    expect(links).toHaveLength(2);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: '3 change requests wait for your review' })).toBe(links[0]);
    for (const link of links) {
      expect(link).toHaveTextContent('3');
      expect(link).toHaveAttribute('href', '/projects/web/environments/dev/change-requests?view=to-review');
    }
  });

  it('is hidden while none wait', async () => {
    const calls = renderShell(0);
    await screen.findByRole('heading', { name: 'Home' });
    await vi.waitFor(() =>
      expect(calls.some((call) => call.path === '/api/v1/change-requests/waiting')).toBe(true),
    );
    expect(screen.queryByRole('link', { name: /wait for your review/ })).toBeNull();
  });
});
