import type { Organisation, PrincipalUser } from '@vexil/core';

/**
 * The signed-in member as the module keeps them: core's `PrincipalUser` is built from it. It carries no
 * credential; sign-in reads the password hash through auth's `findLoginCredentials` alone.
 */
export type UserRecord = Pick<PrincipalUser, 'id' | 'firstName' | 'lastName' | 'email' | 'langKey'> & {
  /** As stored: names this server no longer knows are left out of the payload. */
  authorities: string[];
  activatedDate: Date | null;
  /** As stored: `introReadDate` is missing until the walkthrough is first closed. */
  settings: Partial<PrincipalUser['settings']>;
};

/** The member's organisation as the module keeps it: core's `Organisation` is built from it. */
export type OrganisationRecord = Pick<Organisation, 'id' | 'name' | 'domain'> & {
  /** As stored: a missing setting is off. */
  settings: Partial<Organisation['settings']>;
};
