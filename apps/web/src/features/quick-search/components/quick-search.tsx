import { useCallback, useEffect, useState } from 'react';
import { notifyError } from '../../../lib/notify';
import { useQuickSearchShortcuts } from '../hooks/use-quick-search';
import type * as DialogModuleType from './quick-search-dialog';

type DialogModule = typeof DialogModuleType;

let loading: Promise<DialogModule> | null = null;

/**
 * Starts downloading the dialog (the search library and its results) if it has not been: on the first
 * `/`, Ctrl-K or ⌘K, or as the pointer or the focus reaches the Search button.
 */
export function loadQuickSearch(): Promise<DialogModule> {
  loading ??= import('./quick-search-dialog').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

let opener: (() => void) | null = null;

/** Opens the quick search (the Search button); it loads first if this is its first use. */
export function openQuickSearch(): void {
  opener?.();
}

/**
 * docs/product.md §2 "Quick search": `/` (outside a text field), Ctrl-K or ⌘K, or the top navigation's
 * Search button opens a search over the features, projects and environments the user can see; choosing a
 * result opens it. Mounted once in the signed-in area's shell. The dialog is not part of the pages' first
 * download: it is fetched on first use (or as the pointer reaches the button) and opens once it is here.
 */
export function QuickSearch() {
  const [dialog, setDialog] = useState<DialogModule | null>(null);
  const [openOnMount, setOpenOnMount] = useState(false);
  const open = useCallback(() => {
    if (dialog) {
      dialog.quickSearchControls.open();
      return;
    }
    setOpenOnMount(true);
    loadQuickSearch().then(setDialog, () => {
      setOpenOnMount(false);
      notifyError('The search could not be loaded. Check your connection and try again.');
    });
  }, [dialog]);
  const isOpen = useCallback(
    () => (dialog ? dialog.quickSearchControls.isOpen() : openOnMount),
    [dialog, openOnMount],
  );
  const opened = useCallback(() => setOpenOnMount(false), []);
  useQuickSearchShortcuts({ open, isOpen });
  useEffect(() => {
    opener = open;
    return () => {
      if (opener === open) opener = null;
    };
  }, [open]);

  if (!dialog) return null;
  const { QuickSearchDialog } = dialog;
  return <QuickSearchDialog openOnMount={openOnMount} onOpened={opened} />;
}
