import { randomUUID } from 'node:crypto';
import {
  INTEGRATION_EVENT_KINDS,
  MAX_WEBHOOKS_PER_PROJECT,
  type IntegrationEventKind,
  type Webhook,
  type WebhookDelivery,
  type WebhookInput,
} from '@vexil/core';
import type { AuditWebhook } from '@vexil/core/audit-entries-organisation';
import type { Database, Executor } from '../../db/client';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors';
import {
  OutgoingUrlError,
  checkOutgoingUrl,
  type OutgoingFetch,
  type OutgoingPolicy,
} from '../../lib/outgoing-url';
import type { SecretBox } from '../../lib/secret-box';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { Scope } from '../scope/scope.service';
import { assertIntegrationsAdmin, type IntegrationsLogger } from './access';
import { integrationAudit } from './integration-audit';
import { passes, webhookPayload } from './change-messages';
import * as repo from './webhooks.repository';
import type { DeliveryRecord, IntegrationEvent, WebhookRecord } from './integrations.types';
import { newMessageId, newWebhookSecret } from './webhook-signature';
import { TEST_EVENT, createWebhookWorker, webhookSecretContext } from './webhook-worker';

export { WEBHOOK_RETRY_DELAYS_S, WEBHOOK_RETRY_WINDOW_MS, WEBHOOK_TIMEOUT_MS } from './webhook-worker';

/** Why an address cannot be used, for the field that holds it. */
/** How many deliveries the log shows. */
export const DELIVERY_LOG_LIMIT = 100;

export function refusedUrlMessage(reason: string): string {
  return `Vexil may not send requests to this address: ${reason}.`;
}

function toDelivery(row: DeliveryRecord): WebhookDelivery {
  return {
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType as WebhookDelivery['eventType'],
    status: row.status,
    attempts: row.attempts,
    responseCode: row.responseCode,
    durationMs: row.durationMs,
    error: row.error,
    createdDate: row.createdAt.toISOString(),
    nextAttemptDate: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
  };
}

function toWebhook(
  row: WebhookRecord,
  projectKey: string,
  last: { status: WebhookDelivery['status']; at: Date } | undefined,
  secret?: string,
): Webhook {
  const kinds: readonly string[] = INTEGRATION_EVENT_KINDS;
  return {
    id: row.id,
    projectKey,
    url: row.url,
    description: row.description,
    events: row.events.filter((event): event is IntegrationEventKind => kinds.includes(event)),
    environmentKeys: row.environmentKeys,
    enabled: row.enabled,
    ...(secret ? { secret } : {}),
    createdDate: row.createdAt.toISOString(),
    lastDelivery: last ? { status: last.status, at: last.at.toISOString() } : null,
  };
}

/** A webhook's settings as its audit entries list them. */
function auditWebhook(row: WebhookRecord): AuditWebhook {
  return { url: row.url, events: row.events, environmentKeys: row.environmentKeys, enabled: row.enabled };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

/**
 * Outgoing webhooks of a project (docs/adr/0017-integrations-and-outgoing-requests.md): organisation
 * admins configure them; each change of the chosen kinds becomes a delivery, signed per Standard
 * Webhooks and sent by the delivery worker, which retries with backoff for 24 hours and records every
 * attempt's outcome in the delivery log.
 */
export function createWebhooksService(deps: {
  db: Database;
  audit: AuditService;
  scope: Scope;
  secrets: SecretBox;
  /** The guarded fetch (lib/outgoing-url.ts), with its 10 s timeout and no redirects. */
  fetch: OutgoingFetch;
  /** The same rules, to check an address when it is saved. */
  policy: OutgoingPolicy;
  enabled: boolean;
  logger: IntegrationsLogger;
  /** How often the worker looks for deliveries that came due (0: only when woken). */
  pollMs?: number;
  now?: () => Date;
}) {
  const { db, audit, scope, secrets } = deps;
  const now = deps.now ?? (() => new Date());
  const worker = createWebhookWorker(deps);

  function assertAdmin(principal: Principal) {
    assertIntegrationsAdmin(principal, deps.enabled);
  }

  async function checkUrl(url: string): Promise<void> {
    try {
      await checkOutgoingUrl(url, deps.policy);
    } catch (error) {
      if (error instanceof OutgoingUrlError)
        throw new ValidationError('url', refusedUrlMessage(error.message));
      throw error;
    }
  }

  async function found(principal: Principal, projectKey: string, id: string) {
    const project = await scope.project(db, principal.organisationId, projectKey);
    const row = await repo.findWebhook(db, principal.organisationId, project.id, id);
    if (!row) throw new NotFoundError('webhook', id);
    return { project, row };
  }

  return {
    /** GET /api/v1/projects/{projectKey}/webhooks */
    async list(principal: Principal, projectKey: string): Promise<Webhook[]> {
      assertAdmin(principal);
      const project = await scope.project(db, principal.organisationId, projectKey);
      const rows = await repo.listWebhooks(db, principal.organisationId, project.id);
      const last = await repo.lastDeliveries(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toWebhook(row, project.key, last.get(row.id)));
    },

    /** POST /api/v1/projects/{projectKey}/webhooks: the answer carries the signing secret, once. */
    async create(principal: Principal, projectKey: string, input: WebhookInput): Promise<Webhook> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      const project = await scope.project(db, organisationId, projectKey);
      await checkUrl(input.url);
      const secret = newWebhookSecret();
      const id = randomUUID();
      const row = await db.transaction(async (tx) => {
        const live = await scope.project(tx, organisationId, projectKey);
        if ((await repo.countWebhooks(tx, organisationId, live.id)) >= MAX_WEBHOOKS_PER_PROJECT)
          throw new BadRequestError(`A project may have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks.`);
        const created = await repo.insertWebhook(tx, {
          id,
          organisationId,
          projectId: live.id,
          url: input.url,
          description: input.description,
          events: [...new Set(input.events)],
          environmentKeys: [...new Set(input.environmentKeys)],
          enabled: input.enabled,
          secretEncrypted: secrets.encrypt(secret, webhookSecretContext(id)),
          createdById: principal.userId,
          createdAt: now(),
        });
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'webhook.created',
            by: principal.email,
            id,
            project: { key: live.key, name: live.name },
            webhook: auditWebhook(created),
          }),
        );
        return created;
      });
      return toWebhook(row, project.key, undefined, secret);
    },

    /** PUT /api/v1/projects/{projectKey}/webhooks/{id} */
    async update(
      principal: Principal,
      projectKey: string,
      id: string,
      input: WebhookInput,
    ): Promise<Webhook> {
      assertAdmin(principal);
      const { project } = await found(principal, projectKey, id);
      await checkUrl(input.url);
      const row = await db.transaction(async (tx) => {
        const before = await repo.findWebhook(tx, principal.organisationId, project.id, id, {
          forUpdate: true,
        });
        if (!before) throw new NotFoundError('webhook', id);
        const after = await repo.updateWebhook(tx, id, {
          url: input.url,
          description: input.description,
          events: [...new Set(input.events)],
          environmentKeys: [...new Set(input.environmentKeys)],
          enabled: input.enabled,
          updatedAt: now(),
        });
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'webhook.updated',
            by: principal.email,
            id,
            project: { key: project.key, name: project.name },
            before: auditWebhook(before),
            after: auditWebhook(after),
          }),
        );
        return after;
      });
      const last = await repo.lastDeliveries(db, [id]);
      return toWebhook(row, project.key, last.get(id));
    },

    /** DELETE /api/v1/projects/{projectKey}/webhooks/{id}: its delivery log goes with it. */
    async remove(principal: Principal, projectKey: string, id: string): Promise<void> {
      assertAdmin(principal);
      const { project } = await found(principal, projectKey, id);
      await db.transaction(async (tx) => {
        const before = await repo.findWebhook(tx, principal.organisationId, project.id, id, {
          forUpdate: true,
        });
        if (!before) throw new NotFoundError('webhook', id);
        await repo.deleteWebhook(tx, id);
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'webhook.deleted',
            by: principal.email,
            id,
            project: { key: project.key, name: project.name },
            webhook: auditWebhook(before),
          }),
        );
      });
    },

    /** POST /api/v1/projects/{projectKey}/webhooks/{id}/secret: a new signing secret, shown once. */
    async rotateSecret(principal: Principal, projectKey: string, id: string): Promise<Webhook> {
      assertAdmin(principal);
      const { project } = await found(principal, projectKey, id);
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        const before = await repo.findWebhook(tx, principal.organisationId, project.id, id, {
          forUpdate: true,
        });
        if (!before) throw new NotFoundError('webhook', id);
        const after = await repo.updateWebhook(tx, id, {
          secretEncrypted: secrets.encrypt(secret, webhookSecretContext(id)),
          updatedAt: now(),
        });
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'webhook.secret_rotated',
            by: principal.email,
            id,
            project: { key: project.key, name: project.name },
            url: before.url,
          }),
        );
        return after;
      });
      const last = await repo.lastDeliveries(db, [id]);
      return toWebhook(row, project.key, last.get(id), secret);
    },

    /**
     * POST /api/v1/projects/{projectKey}/webhooks/{id}/test: sends a `webhook.test` event at once and
     * answers its delivery with the outcome (not retried).
     */
    async test(principal: Principal, projectKey: string, id: string): Promise<WebhookDelivery> {
      assertAdmin(principal);
      const { project, row } = await found(principal, projectKey, id);
      const at = now();
      const payload = JSON.stringify({
        type: TEST_EVENT,
        timestamp: at.toISOString(),
        data: {
          webhook: { id: row.id, projectKey: project.key },
          summary: `A test delivery from Vexil to a webhook of the project ${project.name}.`,
        },
      });
      const [delivery] = await repo.insertDeliveries(db, [
        {
          organisationId: principal.organisationId,
          webhookId: row.id,
          messageId: newMessageId(),
          eventType: TEST_EVENT,
          payload,
          createdAt: at,
          nextAttemptAt: null,
        },
      ]);
      const outcome = await worker.attempt(delivery!, row);
      return toDelivery(await repo.recordAttempt(db, delivery!.id, outcome));
    },

    /** GET /api/v1/projects/{projectKey}/webhooks/{id}/deliveries: the newest first. */
    async deliveries(principal: Principal, projectKey: string, id: string): Promise<WebhookDelivery[]> {
      assertAdmin(principal);
      const { row } = await found(principal, projectKey, id);
      return (await repo.listDeliveries(db, principal.organisationId, row.id, DELIVERY_LOG_LIMIT)).map(
        toDelivery,
      );
    },

    /**
     * POST /api/v1/projects/{projectKey}/webhooks/deliveries/{id}/resend: the same event (same body and
     * `webhook-id`) as a new delivery, sent at once and retried like any other.
     */
    async resend(principal: Principal, projectKey: string, deliveryId: string): Promise<WebhookDelivery> {
      assertAdmin(principal);
      const project = await scope.project(db, principal.organisationId, projectKey);
      const original = await repo.findDelivery(db, principal.organisationId, deliveryId);
      const webhook =
        original && (await repo.findWebhook(db, principal.organisationId, project.id, original.webhookId));
      if (!original || !webhook) throw new NotFoundError('webhook delivery', deliveryId);
      const at = now();
      const [delivery] = await repo.insertDeliveries(db, [
        {
          organisationId: principal.organisationId,
          webhookId: webhook.id,
          messageId: original.messageId,
          eventType: original.eventType,
          payload: original.payload,
          createdAt: at,
          nextAttemptAt: at,
        },
      ]);
      worker.wake();
      return toDelivery(delivery!);
    },

    /**
     * A change: a delivery for each enabled webhook of its project that wants it, in the caller's
     * transaction (the queue's change job, change-jobs.ts); how many. The caller wakes the worker
     * once it has committed.
     */
    async enqueue(executor: Executor, event: IntegrationEvent): Promise<number> {
      if (!deps.enabled) return 0;
      const hooks = (await repo.listWebhooks(executor, event.organisationId, event.project.id)).filter(
        (hook) =>
          hook.enabled &&
          passes({ projectKeys: [], environmentKeys: hook.environmentKeys, events: [] }, event) &&
          hook.events.includes(event.kind),
      );
      if (hooks.length === 0) return 0;
      const payload = webhookPayload(event);
      const at = now();
      await repo.insertDeliveries(
        executor,
        hooks.map((hook) => ({
          organisationId: event.organisationId,
          webhookId: hook.id,
          messageId: newMessageId(),
          eventType: event.kind,
          payload,
          createdAt: at,
          nextAttemptAt: at,
        })),
      );
      return hooks.length;
    },

    /** Sends what is due now (the worker's pass; tests call it after moving their clock). */
    wake: worker.wake,

    busy: worker.busy,
    settled: worker.settled,
    start: worker.start,
    stop: worker.stop,

    /** Encrypts every signing secret with the current key (a SECRETS_KEY rotation); how many were. */
    async reencryptSecrets(): Promise<number> {
      let changed = 0;
      for (const row of await repo.allWebhookSecrets(db)) {
        const next = secrets.reencrypt(row.secretEncrypted, webhookSecretContext(row.id));
        if (next) {
          await repo.setWebhookSecret(db, row.id, next);
          changed++;
        }
      }
      return changed;
    },
  };
}
