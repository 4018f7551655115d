import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idSchema, webhookDeliverySchema, webhookInput, webhookSchema } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { WebhooksService } from './webhooks.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const projectParams = z.object({ projectKey: z.string().max(255) });
const webhookParams = z.object({ projectKey: z.string().max(255), id: idSchema });
const base = '/api/v1/projects/:projectKey/webhooks';

export function webhooksRoutes(deps: { webhooks: WebhooksService }): FastifyPluginAsyncZod {
  const { webhooks } = deps;
  return async (app) => {
    app.get(
      base,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'The project’s outgoing webhooks, each with its last delivery (organisation admins)',
          params: projectParams,
          response: { 200: z.array(webhookSchema), ...errors },
        },
      },
      async (request) => webhooks.list(principalOf(request), request.params.projectKey),
    );

    app.post(
      base,
      {
        schema: {
          tags: ['webhooks'],
          summary:
            'Add an outgoing webhook; its URL is checked by the outgoing-request guard; the answer carries the signing secret, once (organisation admins)',
          params: projectParams,
          body: webhookInput,
          response: { 201: webhookSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await webhooks.create(principalOf(request), request.params.projectKey, request.body)),
    );

    app.put(
      `${base}/:id`,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Change an outgoing webhook (organisation admins)',
          params: webhookParams,
          body: webhookInput,
          response: { 200: webhookSchema, ...errors },
        },
      },
      async (request) =>
        webhooks.update(principalOf(request), request.params.projectKey, request.params.id, request.body),
    );

    app.delete(
      `${base}/:id`,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Remove an outgoing webhook and its delivery log (organisation admins)',
          params: webhookParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await webhooks.remove(principalOf(request), request.params.projectKey, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:id/secret`,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Replace the signing secret; the answer carries the new one, once (organisation admins)',
          params: webhookParams,
          response: { 200: webhookSchema, ...errors },
        },
      },
      async (request) =>
        webhooks.rotateSecret(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.post(
      `${base}/:id/test`,
      {
        schema: {
          tags: ['webhooks'],
          summary:
            'Send a webhook.test event now and answer its delivery with the outcome (not retried; organisation admins)',
          params: webhookParams,
          response: { 200: webhookDeliverySchema, ...errors },
        },
      },
      async (request) => webhooks.test(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.get(
      `${base}/:id/deliveries`,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'The webhook’s delivery log, newest first (at most 100; organisation admins)',
          params: webhookParams,
          response: { 200: z.array(webhookDeliverySchema), ...errors },
        },
      },
      async (request) =>
        webhooks.deliveries(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.post(
      `${base}/deliveries/:id/resend`,
      {
        schema: {
          tags: ['webhooks'],
          summary:
            'Send a delivery’s event again (same body and webhook-id) as a new delivery, retried like any other (organisation admins)',
          params: webhookParams,
          response: { 202: webhookDeliverySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await webhooks.resend(principalOf(request), request.params.projectKey, request.params.id)),
    );
  };
}
