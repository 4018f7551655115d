import type { AuditNamed, ByMember } from './audit-entry-parts';
import type { Authority } from './permissions';
import type { AuditAction } from './schemas/audit';

/*
 * The audit entries of the organisation's own writes, as data (docs/adr/0011-audit-entries.md): its
 * members and invitations, sign-up and password resets, single sign-on, sign-ins, billing and
 * integrations. Each module renders its kinds in its `<module>-audit.ts`; `audit-entries.ts` adds
 * them to `AuditEntryKind` and `AUDIT_ENTRY_ACTIONS`.
 */

/** A member as entries name them: by name when they have one, else by e-mail. */
export type AuditMember = { id: string; firstName: string; lastName: string; email: string };

/** Members of the organisation and their invitations. */
export type MemberAuditEntry =
  | (ByMember & {
      kind: 'member.updated';
      /** The member as they are after the change. */
      member: AuditMember;
      /** Their full name before and after, when it changed. */
      name: { from: string; to: string } | null;
      /** Their role before and after (null for none), when it changed. */
      role: { from: Authority | null; to: Authority | null } | null;
    })
  | (ByMember & { kind: 'member.removed'; member: AuditMember; role: Authority | null })
  | (ByMember & { kind: 'member.invitation_cancelled'; member: AuditMember })
  | (ByMember & {
      kind: 'member.invited';
      member: AuditMember;
      role: Authority;
      /** An earlier invitation of the same address was replaced. */
      resent: boolean;
      expiresInDays: number;
    })
  | (ByMember & { kind: 'member.signed_out_everywhere'; userId: string; sessions: number })
  /* Single sign-on's first sign-ins: the member is the actor, `via` names the identity provider. */
  | { kind: 'member.sso_linked'; member: AuditMember; via: string }
  | { kind: 'member.sso_invitation_accepted'; member: AuditMember; via: string }
  | { kind: 'member.sso_joined'; member: AuditMember; via: string; role: Authority };

/** Sign-up, invited sign-up and password resets: the account itself (or the new admin) acts. */
export type SignupAuditEntry =
  | {
      kind: 'signup.invitation_accepted';
      userId: string;
      /** The full name they chose. */
      name: string;
      email: string;
    }
  | { kind: 'signup.password_reset_requested'; userId: string; email: string; lifetimeMinutes: number }
  | { kind: 'signup.password_reset'; userId: string; email: string; sessionsEnded: number }
  | {
      kind: 'signup.organisation_created';
      /** The new organisation admin: their full name and e-mail. */
      admin: { name: string; email: string };
      organisation: { id: string; name: string; domain: string };
      project: AuditNamed;
      /** The names of the first project's environments, in order. */
      environments: string[];
    };

/** A single sign-on connection as its entries describe it (never its client secret). */
export type AuditSsoConnection = {
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  secretStored: boolean;
  allowedDomains: string[];
  defaultRole: Authority;
  required: boolean;
};

/** The organisation's single sign-on connection. */
export type SsoAuditEntry =
  | (ByMember & {
      kind: 'sso.created' | 'sso.updated';
      connection: AuditSsoConnection;
      /** What the save did to the client secret, when it did something. */
      secret: 'replaced' | 'removed' | null;
    })
  | (ByMember & { kind: 'sso.removed'; connection: { id: string; displayName: string } });

/** Sign-ins: a session started, or a run of failed password attempts counted. */
export type SignInAuditEntry =
  | { kind: 'sign_in.password'; user: { id: string; email: string } }
  /** From a one-time login token: single sign-on names its provider (`via`), sign-up and invitations do not. */
  | { kind: 'sign_in.link'; user: { id: string; email: string }; via: string | null }
  | {
      kind: 'sign_in.failed';
      /** The e-mail as typed; its entry repeats it trimmed, lower-cased and shortened. */
      typed: string;
      failures: number;
      /** The member with that e-mail, if any. */
      userId: string | null;
      ip: string | null;
    };

/** A plan as billing's entries describe it: its product, interval and seats. */
export type AuditPlan = { productName: string | null; interval: string | null; seats: number };

/** The organisation's subscription. */
export type BillingAuditEntry =
  | (ByMember & {
      kind: 'billing.plan_chosen';
      subscriptionId: string;
      plan: AuditPlan;
      before: (AuditPlan & { status: string; inTrial: boolean }) | null;
      requested: { priceId: string; seats: number };
    })
  | (ByMember & { kind: 'billing.contact_updated' })
  | {
      /** An instance administrator's `npm run billing -- set-plan`, audited as the system. */
      kind: 'billing.plan_set';
      subscriptionId: string;
      plan: AuditPlan;
      /** The plan as the administrator named it. */
      requestedPlan: string;
      /** The status the Billing tab shows, and the one stored. */
      status: string;
      storedStatus: string;
      inTrial: boolean;
      /** Days of trial left, as the Billing tab counts them. */
      trialDaysLeft: number | null;
      trialEnd: string | null;
    }
  | {
      /** The payment provider's event, audited as the provider. */
      kind: 'billing.provider_reported';
      provider: 'local' | 'stripe';
      subscriptionId: string;
      plan: AuditPlan;
      status: string;
      before: (AuditPlan & { status: string }) | null;
      event: { id: string; type: string };
    };

/** An outgoing webhook's settings as its entries list them. */
export type AuditWebhook = { url: string; events: string[]; environmentKeys: string[]; enabled: boolean };

/** Integrations (Slack, Jira) and a project's outgoing webhooks. */
export type IntegrationAuditEntry =
  | (ByMember & { kind: 'integration.slack_added'; id: string; channel: string; teamName: string | null })
  | (ByMember & {
      kind: 'integration.slack_filters_changed';
      id: string;
      channel: string;
      filters: { projectKeys: string[]; environmentKeys: string[]; events: string[] };
    })
  | (ByMember & { kind: 'integration.jira_connected'; id: string; baseUrl: string; email: string })
  | (ByMember & {
      kind: 'integration.jira_updated';
      id: string;
      baseUrl: string;
      email: string;
      tokenReplaced: boolean;
    })
  | (ByMember & {
      kind: 'integration.removed';
      id: string;
      integration: { type: 'slack'; channel: string } | { type: 'jira'; baseUrl: string };
    })
  | (ByMember & { kind: 'webhook.created'; id: string; project: AuditNamed; webhook: AuditWebhook })
  | (ByMember & {
      kind: 'webhook.updated';
      id: string;
      project: AuditNamed;
      before: AuditWebhook;
      after: AuditWebhook;
    })
  | (ByMember & { kind: 'webhook.deleted'; id: string; project: AuditNamed; webhook: AuditWebhook })
  | (ByMember & { kind: 'webhook.secret_rotated'; id: string; project: AuditNamed; url: string });

/** Every kind of entry of the organisation's own writes. */
export type OrganisationAuditEntry =
  | MemberAuditEntry
  | SignupAuditEntry
  | SsoAuditEntry
  | SignInAuditEntry
  | BillingAuditEntry
  | IntegrationAuditEntry;

/** The action each of these kinds is filed under (the audit log's Action filter). */
export const ORGANISATION_AUDIT_ENTRY_ACTIONS = {
  'member.updated': 'update',
  'member.removed': 'delete',
  'member.invitation_cancelled': 'delete',
  'member.invited': 'create',
  'member.signed_out_everywhere': 'other',
  'member.sso_linked': 'update',
  'member.sso_invitation_accepted': 'update',
  'member.sso_joined': 'create',
  'signup.invitation_accepted': 'update',
  'signup.password_reset_requested': 'other',
  'signup.password_reset': 'update',
  'signup.organisation_created': 'create',
  'sso.created': 'create',
  'sso.updated': 'update',
  'sso.removed': 'delete',
  'sign_in.password': 'login',
  'sign_in.link': 'login',
  'sign_in.failed': 'login',
  'billing.plan_chosen': 'update',
  'billing.contact_updated': 'update',
  'billing.plan_set': 'update',
  'billing.provider_reported': 'update',
  'integration.slack_added': 'create',
  'integration.slack_filters_changed': 'update',
  'integration.jira_connected': 'create',
  'integration.jira_updated': 'update',
  'integration.removed': 'delete',
  'webhook.created': 'create',
  'webhook.updated': 'update',
  'webhook.deleted': 'delete',
  'webhook.secret_rotated': 'update',
} as const satisfies Record<OrganisationAuditEntry['kind'], AuditAction>;
