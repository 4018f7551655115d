import type { Organisation } from '@vexil/core';

export type { OneTimeTokenPurpose } from '../../db/schema/index';

/** An organisation as the sign-in page may show it, before anyone has signed in. */
export type PublicOrganisation = Pick<Organisation, 'id' | 'name' | 'domain'>;

/**
 * What password sign-in checks a member against: the only record that carries the password hash,
 * which is `null` until the member (or invitee) has set a password.
 */
export type LoginCredentials = {
  id: string;
  organisationId: string;
  email: string;
  passwordHash: string | null;
  activated: boolean;
  /** As stored, `ROLE_*` names. */
  authorities: string[];
};

/** A live session of an activated, live member: what a request's principal is built from. */
export type ActiveSession = {
  sessionId: string;
  userId: string;
  organisationId: string;
  organisationDomain: string;
  email: string;
  /** As stored, `ROLE_*` names. */
  authorities: string[];
  /** Refreshed at most once a minute. */
  lastUsedAt: Date;
};

/** The member a one-time token was issued to. */
export type TokenOwner = {
  userId: string;
  organisationId: string;
  /** A single sign-on login token: the provider's display name. */
  via?: string | null;
};

/** Whether a member may still be given a session. */
export type MemberState = { id: string; email: string; activated: boolean; archived: boolean };
