import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  approvalSettingsParams,
  approvalSettingsSchema,
  changeInputSchema,
  changeRequestChangeParams,
  changeRequestInputSchema,
  changeRequestListQuery,
  changeRequestPageSchema,
  changeRequestParams,
  changeRequestPolicyQuery,
  changeRequestPolicySchema,
  changeRequestSchema,
  commentInputSchema,
  errorBodySchema,
  previewInputSchema,
  previewSchema,
  rebaseInputSchema,
  reviewInputSchema,
  waitingCountSchema,
} from '@vexil/core';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth';
import type { ApprovalSettingsService } from './approval-settings';
import type { ChangeRequestsService } from './change-requests.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['change requests'];
const projectParams = z.object({ projectKey: z.string() });
const base = '/api/v1/projects/:projectKey/change-requests';

/** Change requests and approval settings (docs/adr/0024-change-requests.md). */
export function changeRequestsRoutes(deps: {
  changeRequests: ChangeRequestsService;
  approvalSettings: ApprovalSettingsService;
}): FastifyPluginAsyncZod {
  const { changeRequests, approvalSettings } = deps;
  const one = { 200: changeRequestSchema, ...errors };
  return async (app) => {
    app.get(
      '/api/v1/projects/:projectKey/environments/:environmentKey/approval-settings',
      {
        schema: {
          tags,
          summary: "An environment's approval settings (organisation admins and production editors)",
          params: approvalSettingsParams,
          response: { 200: approvalSettingsSchema, ...errors },
        },
      },
      async (request) =>
        approvalSettings.get(principalOf(request), request.params.projectKey, request.params.environmentKey),
    );

    app.put(
      '/api/v1/projects/:projectKey/environments/:environmentKey/approval-settings',
      {
        schema: {
          tags,
          summary: "Save an environment's approval settings (organisation admins)",
          params: approvalSettingsParams,
          body: approvalSettingsSchema,
          response: { 200: approvalSettingsSchema, ...errors },
        },
      },
      async (request) =>
        approvalSettings.put(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.body,
        ),
    );

    app.get(
      '/api/v1/projects/:projectKey/environments/:environmentKey/change-request-policy',
      {
        schema: {
          tags,
          summary: 'Whether an environment asks for change requests, and where the caller’s change goes',
          params: approvalSettingsParams,
          querystring: changeRequestPolicyQuery,
          response: { 200: changeRequestPolicySchema, ...errors },
        },
      },
      async (request) =>
        approvalSettings.policy(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.query,
        ),
    );

    app.get(
      '/api/v1/change-requests/waiting',
      {
        schema: {
          tags,
          summary: 'How many change requests wait for the caller’s review',
          response: { 200: waitingCountSchema, ...errors },
        },
      },
      async (request) => changeRequests.waiting(principalOf(request)),
    );

    app.get(
      base,
      {
        schema: {
          tags,
          summary: 'The change requests of a project, most recently active first',
          params: projectParams,
          querystring: changeRequestListQuery,
          response: { 200: changeRequestPageSchema, ...errors },
        },
      },
      async (request) => changeRequests.list(principalOf(request), request.params.projectKey, request.query),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary: 'Draft a change request for one environment',
          params: projectParams,
          body: changeRequestInputSchema,
          response: { 201: changeRequestSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return changeRequests.create(principalOf(request), request.params.projectKey, request.body);
      },
    );

    app.get(
      `${base}/:id`,
      {
        schema: {
          tags,
          summary: 'One change request: its changes against what is live, its timeline, what you may do',
          params: changeRequestParams,
          response: one,
        },
      },
      async (request) =>
        changeRequests.get(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.post(
      `${base}/:id/changes`,
      {
        schema: {
          tags,
          summary: 'Add a change (or replace the change of the same control)',
          params: changeRequestParams,
          body: changeInputSchema,
          response: one,
        },
      },
      async (request) =>
        changeRequests.addChange(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.body,
        ),
    );

    app.delete(
      `${base}/:id/changes/:changeId`,
      {
        schema: { tags, summary: 'Remove a change', params: changeRequestChangeParams, response: one },
      },
      async (request) =>
        changeRequests.removeChange(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.params.changeId,
        ),
    );

    app.post(
      `${base}/:id/changes/:changeId/rebase`,
      {
        schema: {
          tags,
          summary: 'Bring a change up to date with what is live, keeping the side chosen for each conflict',
          params: changeRequestChangeParams,
          body: rebaseInputSchema,
          response: one,
        },
      },
      async (request) =>
        changeRequests.rebase(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.params.changeId,
          request.body,
        ),
    );

    for (const [verb, summary] of [
      ['submit', 'Submit a draft for review'],
      ['apply', 'Apply an approved request: every change in one transaction, or suspended on a conflict'],
      ['cancel', 'Cancel a request'],
    ] as const) {
      app.post(
        `${base}/:id/${verb}`,
        { schema: { tags, summary, params: changeRequestParams, response: one } },
        async (request) =>
          changeRequests[verb](principalOf(request), request.params.projectKey, request.params.id),
      );
    }

    app.post(
      `${base}/:id/reviews`,
      {
        schema: {
          tags,
          summary: 'Approve, request changes or reject',
          params: changeRequestParams,
          body: reviewInputSchema,
          response: one,
        },
      },
      async (request) =>
        changeRequests.review(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.body,
        ),
    );

    app.post(
      `${base}/:id/preview`,
      {
        schema: {
          tags,
          summary: 'What one user is served now and once the request is applied, per changed feature',
          params: changeRequestParams,
          body: previewInputSchema,
          response: { 200: previewSchema, ...errors },
        },
      },
      async (request) =>
        changeRequests.preview(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.body,
        ),
    );

    app.post(
      `${base}/:id/comments`,
      {
        schema: {
          tags,
          summary: 'Comment on a request',
          params: changeRequestParams,
          body: commentInputSchema,
          response: one,
        },
      },
      async (request) =>
        changeRequests.comment(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.body.text,
        ),
    );
  };
}
