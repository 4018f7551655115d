import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBodySchema,
  featureControlSchema,
  restoreVersionInput,
  versionDiffParams,
  versionDiffSchema,
  versionedFeatureParams,
  versionEnvironmentQuery,
  versionNumberParams,
  versionPageQuery,
  versionPageSchema,
  versionSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { ControlsService } from './controls.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** The history of a feature's control in one environment (docs/adr/0022-versions.md). */
export function controlHistoryRoutes(deps: { controls: ControlsService }): FastifyPluginAsyncZod {
  const { history } = deps.controls;
  const base = '/api/v1/projects/:projectKey/features/:featureKey/versions';
  return async (app) => {
    app.get(
      base,
      {
        schema: {
          tags: ['features'],
          summary: "A control's versions in one environment, newest first, without their snapshots",
          params: versionedFeatureParams,
          querystring: versionPageQuery,
          response: { 200: versionPageSchema, ...errors },
        },
      },
      async (request) => {
        const { environmentKey, page, pageSize } = request.query;
        return history.page(principalOf(request), { ...request.params, environmentKey }, { page, pageSize });
      },
    );

    app.get(
      `${base}/:number`,
      {
        schema: {
          tags: ['features'],
          summary: 'One version of a control, with its snapshot',
          params: versionNumberParams,
          querystring: versionEnvironmentQuery,
          response: { 200: versionSchema, ...errors },
        },
      },
      async (request) => {
        const { number, ...feature } = request.params;
        return history.get(principalOf(request), { ...feature, ...request.query }, number);
      },
    );

    app.get(
      `${base}/:a/diff/:b`,
      {
        schema: {
          tags: ['features'],
          summary: 'What turns version a of a control into version b: a JSON Patch and sentences',
          params: versionDiffParams,
          querystring: versionEnvironmentQuery,
          response: { 200: versionDiffSchema, ...errors },
        },
      },
      async (request) => {
        const { a, b, ...feature } = request.params;
        return history.diff(principalOf(request), { ...feature, ...request.query }, a, b);
      },
    );

    app.post(
      `${base}/:number/restore`,
      {
        schema: {
          tags: ['features'],
          summary:
            'Bring a version of a control forward as a new version (production needs a production editor)',
          params: versionNumberParams,
          querystring: versionEnvironmentQuery,
          body: restoreVersionInput,
          response: { 200: featureControlSchema, ...errors },
        },
      },
      async (request) => {
        const { number, ...feature } = request.params;
        return history.restore(principalOf(request), { ...feature, ...request.query }, number, request.body);
      },
    );
  };
}
