import { Kbd, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { isApplePlatform } from '../hooks/use-quick-search';
import { loadQuickSearch, openQuickSearch } from './quick-search';
import classes from './quick-search.module.css';

/**
 * The top navigation's way into the quick search (docs/product.md §2 "Quick search"): a magnifier with the
 * `/` shortcut beside it where the bar has room, the magnifier alone where it has not. Its title and
 * `aria-keyshortcuts` give both shortcuts.
 */
export function QuickSearchButton() {
  const apple = isApplePlatform();
  return (
    <UnstyledButton
      className={classes.button}
      onClick={openQuickSearch}
      // The dialog is usually here by the time the button is pressed.
      onPointerEnter={() => void loadQuickSearch().catch(() => undefined)}
      onFocus={() => void loadQuickSearch().catch(() => undefined)}
      aria-label="Search"
      aria-haspopup="dialog"
      aria-keyshortcuts={apple ? '/ Meta+K' : '/ Control+K'}
      title={`Search (/ or ${apple ? '⌘K' : 'Ctrl+K'})`}
    >
      <IconSearch size={16} aria-hidden="true" />
      <Kbd size="xs" visibleFrom="lg" aria-hidden="true">
        /
      </Kbd>
    </UnstyledButton>
  );
}
