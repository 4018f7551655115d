import type { User } from '@vexil/core';

/** A member or pending invitation as Team Management keeps them: core's `TeamMember` is built from it. */
export type MemberRecord = Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'langKey' | 'activated'> & {
  /** As stored: names this server no longer knows are left out of the answer. */
  authorities: string[];
  activatedDate: Date | null;
  archived: boolean;
  /** As stored: `introReadDate` is missing until the walkthrough is first closed. */
  settings: { introReadDate?: string | null };
};

/** An invitation about to be stored: only the activation key's hash is kept. */
export type PendingInvitation = {
  organisationId: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  invitedById: string | null;
  activationTokenHash: string;
  expiresAt: Date;
  createdAt: Date;
};
