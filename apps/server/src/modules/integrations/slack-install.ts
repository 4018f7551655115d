import { isOrganisationAdmin, type SlackInstall, type SlackInstallError } from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError } from '../../errors';
import type { SecretBox } from '../../lib/secret-box';
import { hashToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import { secretContext, type IntegrationsLogger } from './access';
import { signState, verifyState } from './install-state';
import { integrationAudit } from './integration-audit';
import * as repo from './integrations.repository';
import type { IntegrationSecrets, StoredIntegrationFilters } from './integrations.types';
import { SlackError, type SlackAdapter } from './slack-adapter';

/** How long an admin has to authorise the chat service. */
export const SLACK_STATE_MS = 10 * 60 * 1000;
/** Where the chat service sends the browser back: one redirect URI for every organisation. */
export const SLACK_CALLBACK_PATH = '/api/v1/integrations/slack/callback';
export const SLACK_NOT_CONFIGURED =
  'Slack is not configured on this server: set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET.';

/** A new Slack integration is told of every change until its filters say otherwise. */
export const NO_FILTERS: StoredIntegrationFilters = { projectKeys: [], environmentKeys: [], events: [] };

export type SlackCallback = {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
};

export type SlackInstallFlow = ReturnType<typeof createSlackInstall>;

/**
 * Adding Slack (docs/adr/0017-integrations-and-outgoing-requests.md): the OAuth round trip from the
 * Integrations screen to Slack's authorisation page and back, storing the channel's incoming webhook.
 */
export function createSlackInstall(deps: {
  db: Database;
  audit: AuditService;
  secrets: SecretBox;
  slack: SlackAdapter;
  /** The integrations flag. */
  enabled: boolean;
  /** The public address, without a trailing slash. */
  publicUrl: string;
  baseDomain: string;
  logger: IntegrationsLogger;
  now: () => Date;
  assertAdmin: (principal: Principal) => void;
}) {
  const { db, audit, secrets, slack, publicUrl, logger, now, assertAdmin } = deps;
  const redirectUri = `${publicUrl}${SLACK_CALLBACK_PATH}`;
  const stateKey = () => secrets.derivedKey('integrations.slack-state');

  /** The dashboard's address for this organisation: its sub-domain when the admin was there. */
  function dashboardOrigin(domain: string, hostname: string): string {
    if (hostname.toLowerCase() !== `${domain}.${deps.baseDomain}`) return publicUrl;
    const base = new URL(publicUrl);
    return `${base.protocol}//${domain}.${deps.baseDomain}${base.port ? `:${base.port}` : ''}`;
  }

  function back(origin: string, outcome: { installed: 'slack' } | { error: SlackInstallError }) {
    const query = 'installed' in outcome ? `installed=${outcome.installed}` : `error=${outcome.error}`;
    return { location: `${origin}/admin/integrations?${query}` };
  }

  return {
    /**
     * GET /api/v1/integrations/slack/install: Slack's authorisation page with a state that names this
     * organisation and admin, signed, valid ten minutes and once.
     */
    async slackInstall(principal: Principal, hostname: string): Promise<SlackInstall> {
      assertAdmin(principal);
      if (!slack.configured) throw new BadRequestError(SLACK_NOT_CONFIGURED);
      const at = now();
      const expiresAt = new Date(at.getTime() + SLACK_STATE_MS);
      const { state, nonce } = signState(stateKey(), {
        organisationId: principal.organisationId,
        userId: principal.userId,
        expiresAt,
      });
      await repo.deleteExpiredStates(db, at);
      await repo.insertState(db, {
        organisationId: principal.organisationId,
        userId: principal.userId,
        kind: 'slack-install',
        nonceHash: hashToken(nonce),
        returnTo: dashboardOrigin(principal.organisationDomain, hostname),
        createdAt: at,
        expiresAt,
      });
      return { url: slack.authorizeUrl(state, redirectUri) };
    },

    /**
     * GET /api/v1/integrations/slack/callback: Slack's answer. The state must be one this server signed,
     * unexpired and unused (it is used up here); its admin must still be one. The code is exchanged for
     * the channel's incoming webhook, stored encrypted. Ends on the Integrations screen, with the outcome.
     */
    async slackCallback(input: SlackCallback): Promise<{ location: string }> {
      const refuse = (reason: string) => {
        logger.warn({ reason }, 'A Slack install was refused');
        return back(publicUrl, { error: 'state' });
      };
      if (!input.state) return refuse('no state');
      const claims = verifyState(stateKey(), input.state, now());
      if (claims === 'invalid') return refuse('state not signed by this server');
      if (claims === 'expired') return refuse('state expired');
      const stored = await repo.takeState(db, 'slack-install', hashToken(claims.nonce));
      if (!stored) return refuse('state already used');
      if (stored.organisationId !== claims.organisationId || stored.userId !== claims.userId)
        return refuse('state does not match its record');
      if (stored.expiresAt.getTime() <= now().getTime()) return refuse('state expired');
      const origin = stored.returnTo ?? publicUrl;
      const { organisationId, userId } = claims;
      if (input.error) return back(origin, { error: 'denied' });
      if (!deps.enabled || !slack.configured) return back(origin, { error: 'not-configured' });
      const member = await repo.memberOf(db, organisationId, userId);
      if (!member || !isOrganisationAdmin({ authorities: member.authorities }))
        return back(origin, { error: 'forbidden' });
      if (!input.code) return back(origin, { error: 'failed' });
      let installation;
      try {
        installation = await slack.exchangeCode(input.code, redirectUri);
      } catch (error) {
        if (!(error instanceof SlackError)) throw error;
        logger.warn({ organisationId, reason: error.reason }, 'Slack refused the install');
        return back(origin, { error: 'failed' });
      }
      await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const secretsOf: IntegrationSecrets = {
          webhookUrl: secrets.encrypt(installation.webhookUrl, secretContext('webhookUrl', organisationId)),
        };
        const created = await repo.insertIntegration(tx, {
          organisationId,
          type: 'slack',
          memberId: userId,
          configuration: {
            incomingWebhook: {
              channel: installation.channel,
              ...(installation.channelId ? { channelId: installation.channelId } : {}),
              ...(installation.configurationUrl ? { configurationUrl: installation.configurationUrl } : {}),
            },
            ...(installation.teamId ? { teamId: installation.teamId } : {}),
            ...(installation.teamName ? { teamName: installation.teamName } : {}),
            filters: NO_FILTERS,
          },
          secrets: secretsOf,
          externalId: installation.teamId,
          createdAt: now(),
        });
        await audit.record(
          tx,
          { organisationId, userId },
          integrationAudit({
            kind: 'integration.slack_added',
            by: member.email,
            id: created.id,
            channel: installation.channel,
            teamName: installation.teamName || null,
          }),
        );
      });
      return back(origin, { installed: 'slack' });
    },
  };
}
