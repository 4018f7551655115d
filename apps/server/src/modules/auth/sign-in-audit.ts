import { escapeMarkdown, markdownCode } from '@vexil/core';
import type { AuditEntry } from '../audit/audit.service';
import { FREE_FAILURES } from './login-throttle';

/*
 * What sign-ins tell the audit log (docs/product.md §2 "Audit log list"): one "signed in" entry per
 * session started, by password or by a one-time link (single sign-on, sign-up, invitation), and
 * failed password attempts as counts, written when a run of failures for one e-mail from one address
 * starts waiting and each time it doubles (the 5th, 10th, 20th… failure), so a guesser cannot flood
 * the log. Access tokens are recorded by their module at their first use of each day.
 */

/** The resource type of sign-in entries, kept apart from the member's own changes ('user'). */
export const SIGN_IN_RESOURCE = 'sign_in';
/** How much of a typed e-mail a failure entry repeats. */
const MAX_TYPED_EMAIL = 120;

export function passwordSignIn(user: { id: string; email: string }): AuditEntry {
  return {
    action: 'login',
    resourceType: SIGN_IN_RESOURCE,
    resourceId: user.id,
    title: `${user.email} signed in`,
    description: `${escapeMarkdown(user.email)} signed in with a password.`,
  };
}

/** A session started from a one-time login token: single sign-on names its provider (`via`). */
export function linkSignIn(user: { id: string; email: string }, via: string | null | undefined): AuditEntry {
  return {
    action: 'login',
    resourceType: SIGN_IN_RESOURCE,
    resourceId: user.id,
    title: `${user.email} signed in`,
    description: via
      ? `${escapeMarkdown(user.email)} signed in with **${escapeMarkdown(via)}** (single sign-on).`
      : `${escapeMarkdown(user.email)} signed in with a one-time sign-in link (sign-up or invitation).`,
  };
}

/** Whether the `count`th failure of a run is written: when waiting starts, then at each doubling. */
export function recordsFailures(count: number): boolean {
  const first = FREE_FAILURES + 1;
  if (count < first || count % first !== 0) return false;
  const times = count / first;
  return (times & (times - 1)) === 0;
}

export function failedSignIns(
  typed: string,
  count: number,
  userId: string | null,
  ip: string | null,
): AuditEntry {
  const email = typed.trim().toLowerCase().slice(0, MAX_TYPED_EMAIL);
  const from = ip ? ` from ${markdownCode(ip)}` : '';
  return {
    action: 'login',
    resourceType: SIGN_IN_RESOURCE,
    resourceId: userId,
    title: `${count} failed sign-ins as ${email}`,
    description: `${count} password sign-ins as ${escapeMarkdown(email)}${from} failed within the hour${userId ? '' : ' (no member has that e-mail)'}. Each further attempt must wait longer; the next entry comes at ${count * 2} failures.`,
  };
}
