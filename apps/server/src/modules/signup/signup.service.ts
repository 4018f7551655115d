import type { Database } from '../../db/client';
import type { Mailer } from '../../lib/mailer';
import type { HashCost } from '../../lib/passwords';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MembersService } from '../members/members.service';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { ProjectsService } from '../projects/projects.service';
import { createFindOrganisationsService } from './find-organisations.service';
import { createInviteeSignupService } from './invitee-signup.service';
import { createOutbox, type OutboxLogger } from '../../lib/mail-limits';
import { createPasswordResetService } from './password-reset.service';
import { createSignupWizardService } from './signup-wizard.service';

export type SignupService = ReturnType<typeof createSignupService>;

/**
 * The signed-out account flows (docs/product.md §2, §8): the sign-up wizard, password reset, invited
 * sign-up and find organisation, sharing one outbox for the e-mails they send after answering.
 */
export function createSignupService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  billing: Pick<BillingService, 'startTrial' | 'hasSeatForNewMember'>;
  projects: Pick<ProjectsService, 'createWithin' | 'announceEnvironments'>;
  organisations: Pick<OrganisationsService, 'create'>;
  members: Pick<MembersService, 'createAdmin' | 'activateInvited' | 'setPassword'>;
  mailer: Mailer;
  publicUrl: string;
  hashCost: HashCost;
  logger: OutboxLogger;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, projects, organisations, members, mailer, publicUrl, hashCost, logger } =
    deps;
  const clock = deps.now ? { now: deps.now } : {};
  const outbox = createOutbox({ mailer, logger });
  return {
    wizard: createSignupWizardService({
      db,
      audit,
      auth,
      billing,
      projects,
      organisations,
      members,
      outbox,
      publicUrl,
      hashCost,
      ...clock,
    }),
    passwordReset: createPasswordResetService({
      db,
      audit,
      auth,
      members,
      outbox,
      publicUrl,
      hashCost,
      ...clock,
    }),
    invitee: createInviteeSignupService({ db, audit, auth, billing, members, hashCost, ...clock }),
    findOrganisations: createFindOrganisationsService({ db, outbox, publicUrl }),
    /** Resolves once the e-mails posted so far were handed to the mail server or given up. */
    mailsSettled: () => outbox.settled(),
  };
}
