import {
  INVITEE_ALREADY_ACTIVATED_MESSAGE,
  INVITEE_NOT_FOUND_MESSAGE,
  INVITEE_NO_SEAT_MESSAGE,
  inviteeNoSeatDetail,
  type Invitee,
  type InviteeSignupInput,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { AppError, BadRequestError, ConflictError } from '../../errors';
import { hashPassword, type HashCost } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { AuthService, ClientInfo, NewSession } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MembersService } from '../members/members.service';
import { signupAudit } from './signup-audit';
import * as repo from './signup.repository';

/** Unknown, expired or cancelled: 404 with the page's words (docs/product.md §8). */
class InviteeNotFoundError extends AppError {
  constructor() {
    super(
      404,
      INVITEE_NOT_FOUND_MESSAGE,
      'This invitation link is not valid: it may have expired or been cancelled.',
    );
  }
}

export type InviteeSignupService = ReturnType<typeof createInviteeSignupService>;

/**
 * Invited sign-up (docs/product.md §2 /invited/{activationKey}, §4): the invitation's key shows who
 * was invited, then activates them once with the names and password they choose and signs them in.
 * The key works until its invitation expires (7 days) and only once, and only while the plan has a
 * seat for one more active member.
 */
export function createInviteeSignupService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  billing: Pick<BillingService, 'hasSeatForNewMember'>;
  members: Pick<MembersService, 'activateInvited'>;
  hashCost: HashCost;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, members, hashCost } = deps;
  const now = deps.now ?? (() => new Date());

  /** Whether the invitation can be seen from this address: any, or its own organisation's. */
  function visible(invitation: repo.InvitationRecord | null, hostOrganisation: string | null, at: Date) {
    if (!invitation || invitation.userArchived) return false;
    if (hostOrganisation && hostOrganisation !== invitation.organisationDomain) return false;
    const accepted = invitation.acceptedAt !== null || invitation.userActivated;
    // An accepted invitation keeps saying so; an unaccepted one dies with its expiry.
    return accepted || invitation.expiresAt === null || invitation.expiresAt > at;
  }

  return {
    /** GET /api/v1/signup/invitee/{activationKey}. */
    async find(activationKey: string, hostOrganisation: string | null): Promise<Invitee> {
      const invitation = await repo.findInvitation(db, hashToken(activationKey));
      if (!invitation || !visible(invitation, hostOrganisation, now())) throw new InviteeNotFoundError();
      const alreadyActivated = invitation.acceptedAt !== null || invitation.userActivated;
      return {
        firstName: invitation.firstName,
        lastName: invitation.lastName,
        email: invitation.email,
        organisationName: invitation.organisationName,
        organisationDomain: invitation.organisationDomain,
        alreadyActivated,
        seatAvailable: alreadyActivated || (await billing.hasSeatForNewMember(db, invitation.organisationId)),
      };
    },

    /**
     * POST /api/v1/signup/invitee/: activates the pending member and spends the key in one
     * transaction, then starts their session as a sign-in would.
     */
    async accept(
      input: InviteeSignupInput,
      hostOrganisation: string | null,
      client: ClientInfo,
    ): Promise<{ session: NewSession; domain: string }> {
      const passwordHash = await hashPassword(input.password, hashCost);
      const at = now();
      const invitation = await db.transaction(async (tx) => {
        const found = await repo.findInvitation(tx, hashToken(input.activationKey), { forUpdate: true });
        if (!found || !visible(found, hostOrganisation, at)) throw new InviteeNotFoundError();
        if (found.acceptedAt !== null || found.userActivated)
          throw new ConflictError(INVITEE_ALREADY_ACTIVATED_MESSAGE);
        // Seats were counted when the invitation was sent; the plan may have shrunk since.
        await lockOrganisation(tx, found.organisationId);
        if (!(await billing.hasSeatForNewMember(tx, found.organisationId)))
          throw new BadRequestError(
            INVITEE_NO_SEAT_MESSAGE,
            undefined,
            inviteeNoSeatDetail(found.organisationName),
            'limit_reached',
          );
        const owner = { organisationId: found.organisationId, userId: found.userId };
        await members.activateInvited(
          tx,
          owner,
          found.id,
          { firstName: input.firstName, lastName: input.lastName, passwordHash },
          at,
        );
        const name = `${input.firstName} ${input.lastName}`.trim();
        await audit.record(
          tx,
          owner,
          signupAudit({ kind: 'signup.invitation_accepted', userId: found.userId, name, email: found.email }),
        );
        return found;
      });
      // The one-time login token of the sign-in flow starts the session, so it is made like any other.
      const token = await auth.createLoginToken(invitation.organisationId, invitation.userId);
      const session = await auth.loginWithToken(
        { token, hostOrganisation: invitation.organisationDomain, rememberMe: false },
        client,
      );
      return { session, domain: invitation.organisationDomain };
    },
  };
}
