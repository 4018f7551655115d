import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  featureControlSchema,
  featureSchema,
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
import type { ControlHistory } from '../controls/control-history';
import type { FeatureHistory } from './feature-history';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const whose =
  'with environmentKey, of the feature’s control in that environment; without, of the feature’s settings';

/**
 * The history of a feature (docs/adr/0022-versions.md): its settings' versions, or with
 * `environmentKey` its control's in that environment. Each history belongs to the module that writes
 * the resource: the settings to this one, the controls to the controls module.
 */
export function featureHistoryRoutes(deps: {
  controls: ControlHistory;
  settings: FeatureHistory;
}): FastifyPluginAsyncZod {
  const { controls, settings } = deps;
  const base = '/api/v1/projects/:projectKey/features/:featureKey/versions';
  return async (app) => {
    app.get(
      base,
      {
        schema: {
          tags: ['features'],
          summary: `Versions, newest first, without their snapshots: ${whose}`,
          params: versionedFeatureParams,
          querystring: versionPageQuery,
          response: { 200: versionPageSchema, ...errors },
        },
      },
      async (request) => {
        const { environmentKey, page, pageSize } = request.query;
        const principal = principalOf(request);
        return environmentKey === undefined
          ? settings.page(principal, request.params, { page, pageSize })
          : controls.page(principal, { ...request.params, environmentKey }, { page, pageSize });
      },
    );

    app.get(
      `${base}/:number`,
      {
        schema: {
          tags: ['features'],
          summary: `One version with its snapshot: ${whose}`,
          params: versionNumberParams,
          querystring: versionEnvironmentQuery,
          response: { 200: versionSchema, ...errors },
        },
      },
      async (request) => {
        const { number, ...feature } = request.params;
        const { environmentKey } = request.query;
        const principal = principalOf(request);
        return environmentKey === undefined
          ? settings.get(principal, feature, number)
          : controls.get(principal, { ...feature, environmentKey }, number);
      },
    );

    app.get(
      `${base}/:a/diff/:b`,
      {
        schema: {
          tags: ['features'],
          summary: `What turns version a into version b, as a JSON Patch and sentences: ${whose}`,
          params: versionDiffParams,
          querystring: versionEnvironmentQuery,
          response: { 200: versionDiffSchema, ...errors },
        },
      },
      async (request) => {
        const { a, b, ...feature } = request.params;
        const { environmentKey } = request.query;
        const principal = principalOf(request);
        return environmentKey === undefined
          ? settings.diff(principal, feature, a, b)
          : controls.diff(principal, { ...feature, environmentKey }, a, b);
      },
    );

    app.post(
      `${base}/:number/restore`,
      {
        schema: {
          tags: ['features'],
          summary: `Bring a version forward as a new version, with the rights its save needs (production rights for a production control, or for settings whose variants production serves): ${whose}; answers the control, or the feature`,
          params: versionNumberParams,
          querystring: versionEnvironmentQuery,
          body: restoreVersionInput,
          response: { 200: z.union([featureControlSchema, featureSchema]), ...errors },
        },
      },
      async (request) => {
        const { number, ...feature } = request.params;
        const { environmentKey } = request.query;
        const principal = principalOf(request);
        return environmentKey === undefined
          ? settings.restore(principal, feature, number, request.body)
          : controls.restore(principal, { ...feature, environmentKey }, number, request.body);
      },
    );
  };
}
