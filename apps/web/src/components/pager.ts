/**
 * Mantine's Pagination on its own, for lists that load it only when they have more than one page
 * (with `lazy`): most lists fit on one, and the first page's download
 * stays smaller without it.
 */
export { Pagination } from '@mantine/core';
