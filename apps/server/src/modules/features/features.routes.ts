import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bookmarkParams,
  environmentParams,
  errorBodySchema,
  featureInput,
  featureListPageSchema,
  featureListQuery,
  featureParams,
  featureSchema,
  featuresQuery,
  homeFeaturePageSchema,
  homeFeaturesQuery,
  idSchema,
  linkFeatureInput,
  projectKeyParam,
  searchQuery,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { FeatureReadModel } from './feature-read-model';
import type { FeaturesService } from './features.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const features = z.array(featureSchema);
/** The key a create form would send, normalised as the create call normalises it. */
const featureKeyQuery = z.object({ key: featureInput.shape.key });
const featureKeyCheck = z.object({ key: z.string(), taken: z.boolean(), freeKey: z.string() });

export function featuresRoutes(deps: {
  features: FeaturesService;
  read: FeatureReadModel;
}): FastifyPluginAsyncZod {
  const { features: service, read } = deps;
  return async (app) => {
    app.get(
      '/api/v1/features',
      {
        schema: {
          tags: ['features'],
          summary: 'Features across the organisation whose name, key or description contains the filter',
          querystring: featuresQuery,
          response: { 200: features, ...errors },
        },
      },
      async (request) => read.search(principalOf(request), request.query.filter),
    );

    app.get(
      '/api/v1/features/home',
      {
        schema: {
          tags: ['features'],
          summary:
            'One page (at most 50) of a home list: recently changed, bookmarked by me or maintained by me, filtered by text and sorted by a column (last change, newest first, by default), with the total',
          querystring: homeFeaturesQuery,
          response: { 200: homeFeaturePageSchema, ...errors },
        },
      },
      async (request) => read.home(principalOf(request), request.query),
    );

    app.get(
      '/api/v1/projects/:projectKey/features',
      {
        schema: {
          tags: ['features'],
          summary: 'Features of a project matching typed text (50 at most)',
          params: projectKeyParam,
          querystring: searchQuery,
          response: { 200: features, ...errors },
        },
      },
      async (request) =>
        read.searchInProject(principalOf(request), request.params.projectKey, request.query.query),
    );

    app.get(
      '/api/v1/projects/:projectKey/feature-key',
      {
        schema: {
          tags: ['features'],
          summary:
            'Whether a new feature may have this key (normalised) in the project, and the first free key made from it',
          params: projectKeyParam,
          querystring: featureKeyQuery,
          response: { 200: featureKeyCheck, ...errors },
        },
      },
      async (request) => service.checkKey(principalOf(request), request.params.projectKey, request.query.key),
    );

    app.get(
      '/api/v1/projects/:projectKey/features/:featureKey',
      {
        schema: {
          tags: ['features'],
          summary: 'A feature with its control in every environment',
          params: featureParams,
          response: { 200: featureSchema, ...errors },
        },
      },
      async (request) => read.get(principalOf(request), request.params.projectKey, request.params.featureKey),
    );

    app.get(
      '/api/v1/projects/:projectKey/environments/:environmentKey/features',
      {
        schema: {
          tags: ['features'],
          summary:
            'One page (50, 100 or 500) of an environment’s features, each with that environment’s control and when it last changed: searched, sorted (name, key or last change) and filtered by tags (all of them), on/off, stale (traffic inactive) and targeting status',
          params: environmentParams,
          querystring: featureListQuery,
          response: { 200: featureListPageSchema, ...errors },
        },
      },
      async (request) =>
        read.page(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.query,
        ),
    );

    app.post(
      '/api/v1/projects/:projectKey/features',
      {
        schema: {
          tags: ['features'],
          summary: 'Create a feature; it gets an off control in every environment',
          params: projectKeyParam,
          body: featureInput,
          response: { 201: featureSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.create(principalOf(request), request.params.projectKey, request.body)),
    );

    app.put(
      '/api/v1/projects/:projectKey/features',
      {
        schema: {
          tags: ['features'],
          summary: 'Update a feature’s settings (all environments); key and existing variants stay',
          params: projectKeyParam,
          body: featureInput,
          response: { 200: featureSchema, ...errors },
        },
      },
      async (request) => service.update(principalOf(request), request.params.projectKey, request.body),
    );

    app.delete(
      '/api/v1/project/:projectKey/features/:featureId',
      {
        schema: {
          tags: ['features'],
          summary: 'Delete (archive) a feature: production editors only',
          params: projectKeyParam.extend({ featureId: idSchema }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(principalOf(request), request.params.projectKey, request.params.featureId);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/api/v1/features/link',
      {
        schema: {
          tags: ['features'],
          summary: 'Link an issue-tracker key to a feature',
          body: linkFeatureInput,
          response: { 200: featureSchema, ...errors },
        },
      },
      async (request) =>
        service.link(principalOf(request), request.body.featureId, request.body.jiraIssueKey),
    );

    app.put(
      '/api/v1/features/:featureId/bookmark/:bookmarked',
      {
        schema: {
          tags: ['features'],
          summary: 'Bookmark or un-bookmark a feature for the signed-in user',
          params: bookmarkParams,
          response: { 200: z.object({ featureId: idSchema, bookmarked: z.boolean() }), ...errors },
        },
      },
      async (request) =>
        service.bookmark(principalOf(request), request.params.featureId, request.params.bookmarked),
    );

    app.get(
      '/api/v1/projects/:projectKey/tags',
      {
        schema: {
          tags: ['features'],
          summary: 'Tags used by the project’s features, containing the query',
          params: projectKeyParam,
          querystring: searchQuery,
          response: { 200: z.array(z.string()), ...errors },
        },
      },
      async (request) => read.tags(principalOf(request), request.params.projectKey, request.query.query),
    );
  };
}
