/*
 * What deferred-overlays.tsx loads on first use. Importing these names here, not the packages'
 * entry points from there, lets the build leave everything else of the packages out of that chunk:
 * the notifications store and the modal events stay with the page, where lib/ uses them.
 */
export { Notifications } from '@mantine/notifications';
export { ModalsProvider } from '@mantine/modals';
