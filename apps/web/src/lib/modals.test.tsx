import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { closeAllModals, closeModal, confirm, openModalCount, showInfo, showModal } from './modals';

function renderModals() {
  render(
    <MantineProvider env="test">
      <ModalsProvider>
        <span />
      </ModalsProvider>
    </MantineProvider>,
  );
}

describe('modals', () => {
  it('stacks: show opens one on top, close pops one, close all clears', async () => {
    renderModals();
    act(() => {
      showModal({ title: 'First', children: 'first body' });
      showModal({ title: 'Second', children: 'second body' });
    });
    expect(await screen.findByText('second body')).toBeVisible();
    expect(openModalCount()).toBe(2);

    act(() => closeModal());
    expect(await screen.findByText('first body')).toBeVisible();
    expect(openModalCount()).toBe(1);

    act(() => {
      showModal({ title: 'Third', children: 'third body' });
      closeAllModals();
    });
    await waitFor(() => expect(screen.queryByText('first body')).toBeNull());
    expect(screen.queryByText('third body')).toBeNull();
    expect(openModalCount()).toBe(0);
  });

  it('confirm resolves true on confirm and false on cancel', async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirm({
        title: 'Delete project',
        message: 'Are you sure?',
        confirmLabel: 'Delete',
        danger: true,
      });
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);

    act(() => {
      answer = confirm({ title: 'Delete project', message: 'Are you sure?', confirmLabel: 'Delete' });
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
    expect(openModalCount()).toBe(0);
  });

  it('info shows a message with a button that closes it', async () => {
    renderModals();
    act(() => {
      showInfo({ title: 'Heads up', message: 'Something to know' });
    });
    expect(await screen.findByText('Something to know')).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByText('Something to know')).toBeNull());
    expect(openModalCount()).toBe(0);
  });
});
