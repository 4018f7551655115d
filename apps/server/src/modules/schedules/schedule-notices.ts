import type { LiveChange, ScheduleState } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { MailMessage } from '../../lib/mailer';
import { organisationDashboard } from '../integrations/change-messages';
import type { MailQueue } from '../mail/mail-queue';
import { escapeHtml } from '../members/invitation-mail';
import type { SchedulePorts } from './schedule-ports';
import type { ScheduleInScope } from './schedules.repository';

/** A header line stays one line whatever a name holds. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The e-mail telling a schedule's author that it stopped or waits for them. */
export function scheduleMail(facts: {
  to: { name: string; email: string };
  subject: string;
  /** Completes "The ramp of Checkout in Production …". */
  sentence: string;
  what: string;
  link: string;
}): MailMessage {
  const subject = `${facts.subject}: ${oneLine(facts.what)}`;
  const sentence = `${oneLine(facts.what)} ${facts.sentence}`;
  const text = [sentence, '', 'Open it:', facts.link, ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8f9fa;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#212529">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:24px">
<p style="margin:0 0 16px">${e(sentence)}</p>
<p style="margin:0 0 8px"><a href="${e(facts.link)}" style="display:inline-block;background:#228be6;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">Open the targeting</a></p>
</div>
</body>
</html>
`;
  return { to: { name: oneLine(facts.to.name), address: facts.to.email }, subject, text, html };
}

export type ScheduleNotices = ReturnType<typeof createScheduleNotices>;

/**
 * Who is told what of a schedule: its author by e-mail when it stops (suspended, paused by its
 * failures or its cut-off) or waits for an approval, written in the move's transaction so that it is
 * sent once (docs/adr/0023-durable-queue.md); the open dashboards of every move once it commits.
 */
export function createScheduleNotices(deps: {
  mail: Pick<MailQueue, 'enqueue'>;
  member: SchedulePorts['member'];
  publicUrl: string;
  baseDomain: string;
}) {
  return {
    async tellAuthor(tx: Executor, found: ScheduleInScope, notice: { subject: string; sentence: string }) {
      const { schedule, project, feature, environment } = found;
      if (!schedule.authorId) return;
      const author = await deps.member(tx, schedule.organisationId, schedule.authorId);
      if (!author) return;
      const dashboard = organisationDashboard(deps.publicUrl, deps.baseDomain, author.organisationDomain);
      const link = `${dashboard}/projects/${encodeURIComponent(project.key)}/environments/${encodeURIComponent(environment.key)}/features/${encodeURIComponent(feature.key)}/targeting`;
      const noun = schedule.kind === 'ramp' ? 'The ramp' : 'The scheduled change';
      await deps.mail.enqueue(tx, {
        purpose: 'schedule',
        organisationId: schedule.organisationId,
        message: scheduleMail({
          to: { name: author.name, email: author.email },
          subject: notice.subject,
          sentence: notice.sentence,
          what: `${noun} of ${feature.name} in ${environment.name}`,
          link,
        }),
      });
    },

    /** The open dashboards' change for a schedule that moved. */
    live(found: ScheduleInScope, state: ScheduleState, actor: LiveChange['actor'], at: Date): LiveChange {
      return {
        kind: 'schedule.changed',
        projectKey: found.project.key,
        environmentKey: found.environment.key,
        featureKey: found.feature.key,
        ...(actor ? { actor } : {}),
        at: at.toISOString(),
        schedule: { id: found.schedule.id, state },
      };
    },
  };
}
