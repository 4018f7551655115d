import type { Authority } from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import type { AuditService } from '../audit/audit.service';
import type { BillingService } from '../billing/billing.service';
import * as identities from './identities.repository';
import { memberAudit } from './member-audit';
import * as repo from './members.repository';

/**
 * Why single sign-on does not sign someone in: a removed member (archived, or removed and not invited
 * since), no seat left for a newcomer or for accepting an invitation, an e-mail the provider did not
 * verify (which may not link or join), or a member already bound to another identity of the same
 * provider.
 */
export type SsoRefusal = 'archived' | 'removed' | 'no-seat' | 'unverified' | 'bound-elsewhere';

/** The person an identity provider vouched for, as the sso module passes them on. */
export type SsoPerson = {
  /** The provider's issuer and the person's subject (`sub`) there: who they are. */
  issuer: string;
  subject: string;
  /** Lowercase; of a domain the connection allows. */
  email: string;
  /** The provider asserted `email_verified: true`. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  /** The connection's display name, for the audit log. */
  via: string;
};

/**
 * Single sign-on's members (docs/adr/0014-single-sign-on.md): a member is found by the identity
 * (issuer, subject) bound on their first sign-in through the provider, never by e-mail afterwards.
 * An unbound identity with a verified e-mail links to the active or invited member of that e-mail,
 * or joins as a new member with the connection's role within the plan's seats; someone removed stays
 * out until invited again. Everything under the organisation lock, audited.
 */
export function createSsoMembers(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  now: () => Date;
}) {
  const { db, audit, billing, now } = deps;

  return {
    async memberForSingleSignOn(
      organisationId: string,
      person: SsoPerson,
      role: Authority,
    ): Promise<{ userId: string } | { refused: SsoRefusal }> {
      const email = person.email.toLowerCase();
      const identity = { issuer: person.issuer, subject: person.subject };
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const boundId = await identities.findBoundMember(tx, organisationId, identity);
        if (boundId) {
          const bound = await repo.findMember(tx, organisationId, boundId);
          if (!bound || bound.archived || !bound.activated) return { refused: 'archived' as const };
          return { userId: bound.id };
        }
        if (await identities.isRemoved(tx, organisationId, email, identity))
          return { refused: 'removed' as const };
        // A first sign-in: the e-mail decides who this is, so only one the provider verified.
        if (!person.emailVerified) return { refused: 'unverified' as const };
        const [member] = await repo.findByEmails(tx, organisationId, [email]);
        if (member?.archived) return { refused: 'archived' as const };
        if (member && (await identities.hasIdentityAt(tx, organisationId, member.id, identity.issuer)))
          return { refused: 'bound-elsewhere' as const };
        const at = now();
        const actor = (userId: string) => ({ organisationId, userId });
        if (member?.activated) {
          await identities.bindIdentity(tx, organisationId, member.id, identity, at);
          await audit.record(
            tx,
            actor(member.id),
            memberAudit({ kind: 'member.sso_linked', member, via: person.via }),
          );
          return { userId: member.id };
        }
        const firstName = member?.firstName || person.firstName;
        const lastName = member?.lastName || person.lastName;
        if (member) {
          // The invitation took its seat when sent; the plan may have shrunk since.
          if (!(await billing.hasSeatForNewMember(tx, organisationId)))
            return { refused: 'no-seat' as const };
          await repo.activatePendingMember(tx, organisationId, member.id, { firstName, lastName, at });
          await identities.bindIdentity(tx, organisationId, member.id, identity, at);
          await audit.record(
            tx,
            actor(member.id),
            memberAudit({
              kind: 'member.sso_invitation_accepted',
              member: { id: member.id, firstName, lastName, email },
              via: person.via,
            }),
          );
          return { userId: member.id };
        }
        if ((await billing.remaining(tx, organisationId, 'maxOrganisationUsers')) < 1)
          return { refused: 'no-seat' as const };
        const userId = await repo.insertMember(tx, {
          activated: true,
          organisationId,
          email,
          firstName,
          lastName,
          authorities: [role],
          at,
        });
        await identities.bindIdentity(tx, organisationId, userId, identity, at);
        await audit.record(
          tx,
          actor(userId),
          memberAudit({
            kind: 'member.sso_joined',
            member: { id: userId, firstName, lastName, email },
            via: person.via,
            role,
          }),
        );
        return { userId };
      });
    },
  };
}
