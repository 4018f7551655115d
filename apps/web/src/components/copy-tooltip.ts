/*
 * What every copy button's tooltip shares. A module of its own, so that the home page's feature table
 * can use it without loading the Api keys modal, which opens only on demand.
 */

/** docs/product.md §9: copy tooltips open after 300 ms and close after 150 ms. */
export const COPY_TOOLTIP_OPEN_DELAY_MS = 300;
export const COPY_TOOLTIP_CLOSE_DELAY_MS = 150;
export const COPIED_MESSAGE = 'Copied to clipboard';
