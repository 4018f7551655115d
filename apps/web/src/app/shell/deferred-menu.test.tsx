import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider, Menu, UnstyledButton } from '@mantine/core';
import { theme } from '../theme';
import { DeferredMenu, menuLoader, useMenuRequest, type LoadedMenuProps } from './deferred-menu';

function AccountMenu(props: LoadedMenuProps) {
  const target = useMenuRequest(props);
  return (
    <Menu>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item>Log Out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** A menu whose code arrives when the test says so; each load can fail or succeed. */
function slowMenu() {
  const arrivals: { arrive: () => void; fail: () => void }[] = [];
  let loads = 0;
  const loader = menuLoader(() => {
    loads += 1;
    return new Promise<typeof AccountMenu>((resolve, reject) => {
      arrivals.push({ arrive: () => resolve(AccountMenu), fail: () => reject(new Error('offline')) });
    });
  });
  render(
    // As every web test (testing/test-utils.tsx): without it, the menu hides its dropdown once the
    // positioning library finds its button "detached" (jsdom lays nothing out), whenever that
    // asynchronous check happens to finish before the test looks.
    <MantineProvider theme={theme} env="test">
      <DeferredMenu
        loader={loader}
        menuProps={{}}
        target={<UnstyledButton aria-label="Account menu">Demo Admin</UnstyledButton>}
      />
      <button type="button">Elsewhere</button>
    </MantineProvider>,
  );
  return { arrivals, loads: () => loads };
}

const accountButton = () => screen.getByRole('button', { name: 'Account menu' });

describe('a menu loaded when first wanted', () => {
  it('shows its button as a closed menu button and loads nothing until the button is used', async () => {
    const menu = slowMenu();
    expect(accountButton().getAttribute('aria-haspopup')).toBe('menu');
    expect(accountButton().getAttribute('aria-expanded')).toBe('false');
    expect(menu.loads()).toBe(0);

    await userEvent.setup().hover(accountButton());
    expect(menu.loads()).toBe(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens once it has arrived when its button was pressed before, and gives the focus back on closing', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    await user.click(accountButton());
    expect(screen.queryByRole('menu')).toBeNull();

    await act(async () => menu.arrivals[0]?.arrive());
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
    expect(menu.loads()).toBe(1);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(accountButton()));
  });

  it('keeps the focus on its button, closed, when it arrives while the button has the focus', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(accountButton());

    await act(async () => menu.arrivals[0]?.arrive());
    // The loaded menu's own button takes the focus back as it replaces the stand-in.
    await waitFor(() => expect(document.activeElement).toBe(accountButton()));
    expect(screen.queryByRole('menu')).toBeNull();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
  });

  it('opens when its button is pressed after the menu arrived while the pointer rested on it', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    const pointedAt = accountButton();
    await user.hover(pointedAt);
    await act(async () => menu.arrivals[0]?.arrive());

    // The user sees no change and presses the button under the pointer: the one they pointed at.
    await user.click(pointedAt);
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
  });

  it('opens when the menu arrives between pressing the button and letting go', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    const pressed = accountButton();
    await user.hover(pressed);
    await user.pointer({ keys: '[MouseLeft>]', target: pressed });
    await act(async () => menu.arrivals[0]?.arrive());
    await user.pointer({ keys: '[/MouseLeft]', target: pressed });

    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(accountButton()));
  });

  it('becomes the loaded menu once the pointer leaves, and opens at the next press', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    await user.hover(accountButton());
    await act(async () => menu.arrivals[0]?.arrive());
    await user.unhover(accountButton());

    await user.click(accountButton());
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
    expect(menu.loads()).toBe(1);
  });

  it('stays a button after a failed load and loads again when used again', async () => {
    const menu = slowMenu();
    const user = userEvent.setup();
    await user.click(accountButton());
    await act(async () => menu.arrivals[0]?.fail());
    expect(screen.queryByRole('menu')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    await user.click(accountButton());
    expect(menu.loads()).toBe(2);
    await act(async () => menu.arrivals[1]?.arrive());
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
  });
});
