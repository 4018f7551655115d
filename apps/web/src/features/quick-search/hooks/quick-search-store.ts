import { createSpotlight } from '@mantine/spotlight';

/**
 * The quick search dialog's open state and selection. Only the dialog's module (loaded on first use)
 * imports it, so the search library stays out of the pages' first download.
 */
export const [quickSearchStore, quickSearch] = createSpotlight();
