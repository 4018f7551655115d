import type { ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { modals, type ModalSettings } from '@mantine/modals';

/**
 * docs/product.md §2 "Modals form a stack": showModal opens one on top, closeModal pops the top one, closeAllModals
 * clears them. Mantine's ModalsProvider shows the last opened modal; this module remembers the order so
 * that callers outside React can pop without knowing ids.
 */
const stack: string[] = [];
let opened = 0;

function forget(id: string): void {
  const index = stack.lastIndexOf(id);
  if (index !== -1) stack.splice(index, 1);
}

function nextId(): string {
  opened += 1;
  return `vexil-modal-${opened}`;
}

/** Opens a modal on top of the stack and returns its id. */
export function showModal(settings: ModalSettings): string {
  const id = settings.modalId ?? nextId();
  stack.push(id);
  modals.open({
    centered: true,
    ...settings,
    modalId: id,
    onClose: () => {
      forget(id);
      settings.onClose?.();
    },
  });
  return id;
}

/** Closes the top modal (or the one named). */
export function closeModal(id?: string): void {
  const target = id ?? stack[stack.length - 1];
  if (target === undefined) return;
  forget(target);
  modals.close(target);
}

export function closeAllModals(): void {
  stack.length = 0;
  modals.closeAll();
}

/** How many modals are open, for tests and guards. */
export function openModalCount(): number {
  return stack.length;
}

export type ConfirmOptions = {
  title: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirm button is red: the action destroys something. */
  danger?: boolean;
};

/** A generic confirmation dialog; resolves true when confirmed, false when cancelled or dismissed. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (value: boolean) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    const id = nextId();
    stack.push(id);
    modals.openConfirmModal({
      modalId: id,
      centered: true,
      title: options.title,
      children:
        typeof options.message === 'string' ? <Text size="sm">{options.message}</Text> : options.message,
      labels: { confirm: options.confirmLabel ?? 'Confirm', cancel: options.cancelLabel ?? 'Cancel' },
      confirmProps: options.danger ? { color: 'red' } : {},
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => {
        forget(id);
        answer(false);
      },
    });
  });
}

export type InfoOptions = {
  title: ReactNode;
  message: ReactNode;
  closeLabel?: string;
};

/** A generic information dialog with a single button that closes it. */
export function showInfo(options: InfoOptions): string {
  const id = nextId();
  return showModal({
    modalId: id,
    title: options.title,
    children: (
      <>
        {typeof options.message === 'string' ? <Text size="sm">{options.message}</Text> : options.message}
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => closeModal(id)}>{options.closeLabel ?? 'OK'}</Button>
        </Group>
      </>
    ),
  });
}
