import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  idParam,
  integrationFiltersSchema,
  integrationSchema,
  integrationsAvailableSchema,
  issueKeySchema,
  jiraConnectInput,
  jiraConnectTokenSchema,
  jiraConnectionInput,
  jiraConnectionSchema,
  jiraIssueSchema,
  slackInstallSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { IntegrationsService } from './integrations.service';
import { SLACK_CALLBACK_PATH } from './integrations.service';
import type { JiraService } from './jira.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** Slack's answer to the authorisation: a code or an error, and the state. */
const callbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
});

/** Per client address: each callback may make a request to Slack. */
const CALLBACK_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

export function integrationsRoutes(deps: {
  integrations: IntegrationsService;
  jira: JiraService;
}): FastifyPluginAsyncZod {
  const { integrations, jira } = deps;
  return async (app) => {
    app.get(
      '/api/v1/integrations',
      {
        schema: {
          tags: ['integrations'],
          summary: 'The organisation’s installed integrations, oldest first (organisation admins)',
          response: { 200: z.array(integrationSchema), ...errors },
        },
      },
      async (request) => integrations.list(principalOf(request)),
    );

    app.get(
      '/api/v1/integrations/available',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'Whether Slack can be added (a Slack app is configured) and Jira (the jira-integration flag; its connection if any)',
          response: { 200: integrationsAvailableSchema, ...errors },
        },
      },
      async (request) => integrations.available(principalOf(request)),
    );

    app.delete(
      '/api/v1/integrations/:id',
      {
        schema: {
          tags: ['integrations'],
          summary: 'Remove an integration (organisation admins)',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await integrations.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/api/v1/integrations/:id/filters',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'Which projects, environments and events a Slack integration posts (empty lists: all; organisation admins)',
          params: idParam,
          body: integrationFiltersSchema,
          response: { 200: integrationSchema, ...errors },
        },
      },
      async (request) => integrations.setFilters(principalOf(request), request.params.id, request.body),
    );

    app.get(
      '/api/v1/integrations/slack/install',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'Slack’s authorisation page (scope incoming-webhook) with a signed, single-use state valid 10 minutes; the browser goes there (organisation admins)',
          response: { 200: slackInstallSchema, ...errors },
        },
      },
      async (request) => integrations.slackInstall(principalOf(request), request.hostname),
    );

    app.get(
      SLACK_CALLBACK_PATH,
      {
        // A HEAD request (a link checker's) must not spend the state.
        exposeHeadRoute: false,
        config: { public: true, rateLimit: CALLBACK_RATE_LIMIT },
        schema: {
          tags: ['integrations'],
          summary:
            'Where Slack sends the browser back: adds the channel, then redirects to /admin/integrations?installed=slack or ?error={reason}',
          querystring: callbackQuery,
          response: { 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        const result = await integrations.slackCallback(request.query);
        return reply.header('cache-control', 'no-store').redirect(result.location, 302);
      },
    );

    app.get(
      '/api/v1/integrations/jira/connect-token',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'A one-time token (30 minutes) for /admin/integrations/jira/connect?token= (organisation admins, jira-integration flag)',
          response: { 200: jiraConnectTokenSchema, ...errors },
        },
      },
      async (request) => jira.connectToken(principalOf(request)),
    );

    app.post(
      '/api/v1/integrations/jira/connect',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'Connect Jira with a connect token: base URL, e-mail and API token, checked against Jira first (organisation admins)',
          body: jiraConnectInput,
          response: { 201: jiraConnectionSchema, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await jira.connect(principalOf(request), request.body)),
    );

    app.get(
      '/api/v1/integrations/jira/issues/:key',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'An issue’s title and page, from Jira or remembered (10 minutes); the bare key when Jira cannot be reached (members)',
          params: z.object({ key: issueKeySchema }),
          response: { 200: jiraIssueSchema, ...errors },
        },
      },
      async (request) => jira.issue(principalOf(request), request.params.key),
    );

    app.get(
      '/api/v1/integrations/jira/:id',
      {
        schema: {
          tags: ['integrations'],
          summary: 'The Jira connection (its API token never; organisation admins)',
          params: idParam,
          response: { 200: jiraConnectionSchema, ...errors },
        },
      },
      async (request) => jira.get(principalOf(request), request.params.id),
    );

    app.put(
      '/api/v1/integrations/jira/:id',
      {
        schema: {
          tags: ['integrations'],
          summary:
            'Change the Jira connection; the API token is kept when omitted; checked against Jira first (organisation admins)',
          params: idParam,
          body: jiraConnectionInput,
          response: { 200: jiraConnectionSchema, ...errors },
        },
      },
      async (request) => jira.update(principalOf(request), request.params.id, request.body),
    );
  };
}
