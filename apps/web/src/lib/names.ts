/*
 * People's names for display. Kept apart from the date helpers in ./format so that the top
 * navigation's profile menu, on every page, does not bring the date library into the first load.
 */

/** "First Last", or the e-mail address when the user has no name yet: core's, as the server names members. */
export { displayName as fullName } from '@vexil/core/scope';

/** Up to two initials for an avatar. */
export function initials(user: {
  firstName?: string | null;
  lastName?: string | null;
  email: string;
}): string {
  const letters = [user.firstName, user.lastName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || user.email.charAt(0)).toUpperCase();
}
