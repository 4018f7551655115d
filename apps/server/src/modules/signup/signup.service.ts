import type { Database } from '../../db/client';
import type { HashCost } from '../../lib/passwords';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MailQueue } from '../mail/mail-queue';
import type { MembersService } from '../members/members.service';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { ProjectsService } from '../projects/projects.service';
import type { JobQueue } from '../queue/queue.service';
import { createFindOrganisationsService } from './find-organisations.service';
import { createInviteeSignupService } from './invitee-signup.service';
import { createPasswordResetService } from './password-reset.service';
import { createSignupWizardService } from './signup-wizard.service';

export type SignupService = ReturnType<typeof createSignupService>;

/**
 * The signed-out account flows (docs/product.md §2, §8): the sign-up wizard, password reset, invited
 * sign-up and find organisation. Their e-mails, and the work a signed-out request must not wait for,
 * go through the durable queue (docs/adr/0023-durable-queue.md).
 */
export function createSignupService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  billing: Pick<BillingService, 'startTrial' | 'hasSeatForNewMember'>;
  projects: Pick<ProjectsService, 'createWithin' | 'announceEnvironments'>;
  organisations: Pick<OrganisationsService, 'create'>;
  members: Pick<MembersService, 'createAdmin' | 'activateInvited' | 'setPassword'>;
  queue: JobQueue;
  mail: MailQueue;
  publicUrl: string;
  hashCost: HashCost;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, projects, organisations, members, queue, mail, publicUrl, hashCost } =
    deps;
  const clock = deps.now ? { now: deps.now } : {};
  const passwordReset = createPasswordResetService({
    db,
    audit,
    auth,
    members,
    queue,
    mail,
    publicUrl,
    hashCost,
    ...clock,
  });
  return {
    wizard: createSignupWizardService({
      db,
      audit,
      auth,
      billing,
      projects,
      organisations,
      members,
      mail,
      publicUrl,
      hashCost,
      ...clock,
    }),
    passwordReset,
    invitee: createInviteeSignupService({ db, audit, auth, billing, members, hashCost, ...clock }),
    findOrganisations: createFindOrganisationsService({ db, queue, mail, publicUrl, ...clock }),
    /**
     * Resolves once the queue's worker is idle: the e-mails queued so far were sent, given up, or
     * wait for a retry later (tests).
     */
    async mailsSettled(): Promise<void> {
      await mail.settled();
    },
  };
}
