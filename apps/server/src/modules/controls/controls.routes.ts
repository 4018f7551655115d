import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorBodySchema,
  featureControlInput,
  featureControlSchema,
  featureControlToggleInput,
  idParam,
  variantDailyImpressionsQuery,
  variantDailyImpressionsSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { ControlsService } from './controls.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function controlsRoutes(deps: { controls: ControlsService }): FastifyPluginAsyncZod {
  const { controls } = deps;
  return async (app) => {
    app.put(
      '/api/v1/feature-controls',
      {
        schema: {
          tags: ['features'],
          summary:
            'Save one control: on/off, off variant and targeting rules (production needs a production editor)',
          body: featureControlInput,
          response: { 200: featureControlSchema, ...errors },
        },
      },
      async (request) => controls.save(principalOf(request), request.body),
    );

    app.put(
      '/api/v1/feature-controls/:id/enabled',
      {
        schema: {
          tags: ['features'],
          summary: 'Turn one control on or off, leaving its targeting as stored',
          params: idParam,
          body: featureControlToggleInput,
          response: { 200: featureControlSchema, ...errors },
        },
      },
      async (request) => controls.toggle(principalOf(request), request.params.id, request.body),
    );

    app.get(
      '/api/v1/variant-daily-impressions',
      {
        schema: {
          tags: ['features'],
          summary: 'Impressions of one control per variant and day, the last 30 days',
          querystring: variantDailyImpressionsQuery,
          response: { 200: variantDailyImpressionsSchema, ...errors },
        },
      },
      async (request) => controls.dailyImpressions(principalOf(request), request.query.featureControlId),
    );
  };
}
