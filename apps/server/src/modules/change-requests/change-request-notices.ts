import { can, type ChangeRequestTransition, type LiveChange, type RoleGrant } from '@vexil/core';
import type { Executor } from '../../db/client';
import { actorOf as liveActorOf } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import type { Principal } from '../auth/auth.service';
import { organisationDashboard } from '../integrations/change-messages';
import type { MailQueue } from '../mail/mail-queue';
import { requestsOf } from './change-request-facts';
import { changeRequestMail } from './change-request-mail';
import type { RequestInScope } from './change-requests.repository';

/** A member as a notification reads them: who they are and what they may approve. */
export type Member = { id: string; name: string; email: string; authorities: string[]; grants: RoleGrant[] };

/** The organisation's activated members with their rights; filled by the composition root. */
export type MembersSource = (executor: Executor, organisationId: string) => Promise<Member[]>;

export type ChangeRequestNotices = ReturnType<typeof createChangeRequestNotices>;

/**
 * Who is told what of a change request, written in the transition's transaction so that it is
 * delivered once, after a crash too (docs/adr/0023-durable-queue.md): reviewers by e-mail when it is
 * submitted, its author when it is approved, sent back, rejected, applied, suspended or cancelled by
 * someone else; the chat channels and outgoing webhooks (`change-request.*`) through the
 * integrations' outbox; the open dashboards once it commits.
 */
export function createChangeRequestNotices(deps: {
  outbox: ChangeOutbox;
  mail: Pick<MailQueue, 'enqueue'>;
  members: MembersSource;
  publicUrl: string;
  baseDomain: string;
}) {
  const { outbox, mail, members } = deps;

  function linkOf(principal: Principal, found: RequestInScope): string {
    const dashboard = organisationDashboard(deps.publicUrl, deps.baseDomain, principal.organisationDomain);
    const { project, environment, request } = found;
    return `${dashboard}/projects/${encodeURIComponent(project.key)}/environments/${encodeURIComponent(environment.key)}/change-requests/${request.id}`;
  }

  /** Who receives the e-mail of a transition. */
  function recipients(
    principal: Principal,
    found: RequestInScope,
    transition: ChangeRequestTransition,
    all: Member[],
  ) {
    const others = all.filter((member) => member.id !== principal.userId);
    if (transition === 'submitted') {
      return others.filter(
        (member) => member.id !== found.request.authorId && can(member, 'approve', requestsOf(found)),
      );
    }
    return others.filter((member) => member.id === found.request.authorId);
  }

  return {
    /**
     * Tells of a transition in `tx`; answers the live change for the caller to publish to the open
     * dashboards once `tx` commits.
     */
    async told(
      tx: Executor,
      principal: Principal,
      found: RequestInScope,
      transition: ChangeRequestTransition,
      details: { comment?: string | null | undefined; reason?: string | null | undefined } = {},
    ): Promise<LiveChange> {
      const change: LiveChange = {
        kind: 'change-request.changed',
        projectKey: found.project.key,
        environmentKey: found.environment.key,
        actor: liveActorOf(principal),
        at: new Date().toISOString(),
        changeRequest: { id: found.request.id, title: found.request.title, transition },
      };
      await outbox(tx, principal.organisationId, change);
      const link = linkOf(principal, found);
      for (const member of recipients(
        principal,
        found,
        transition,
        await members(tx, principal.organisationId),
      )) {
        await mail.enqueue(tx, {
          purpose: 'change request',
          organisationId: principal.organisationId,
          message: changeRequestMail({
            to: { name: member.name, email: member.email },
            actor: principal.email,
            transition,
            request: {
              title: found.request.title,
              environment: found.environment.name,
              project: found.project.name,
            },
            comment: details.comment ?? null,
            reason: details.reason ?? null,
            link,
          }),
        });
      }
      return change;
    },
  };
}
