import { useEffect } from 'react';

/** Input types that take typed text: there `/` is a character, not the shortcut. */
const NON_TEXT_INPUTS = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Whether keys pressed in `target` type text into it. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Whether the user is on a Mac, iPhone or iPad, where the shortcut is ⌘K rather than Ctrl K. */
export function isApplePlatform(): boolean {
  const { userAgentData } = navigator as Navigator & { userAgentData?: { platform: string } };
  return /mac|iphone|ipad|ipod/i.test(userAgentData?.platform ?? navigator.platform);
}

/** Whether another modal dialog (a form, a confirmation) has the user's attention. */
function otherDialogOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"]') !== null;
}

/** Ctrl-K or ⌘K, and nothing else held down. */
function isModK(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k'
  );
}

/**
 * Opens the quick search on `/` outside a text field (whatever key the layout needs for it) and on Ctrl-K
 * or ⌘K anywhere, a text field included. Neither opens it over another dialog.
 */
export function useQuickSearchShortcuts(search: { open: () => void; isOpen: () => boolean }): void {
  const { open, isOpen } = search;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey;
      if (slash ? isTextField(event.target) : !isModK(event)) return;
      if (isOpen()) {
        event.preventDefault();
        return;
      }
      if (otherDialogOpen()) return;
      // The slash is not typed into the search field, and the browser's own Ctrl-K does not run.
      event.preventDefault();
      open();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, isOpen]);
}
