import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_LENGTH,
  checkDomainInput,
  checkDomainResponse,
  createAccountInput,
  createAccountResponse,
  findOrganisationInput,
  inviteeSchema,
  inviteeSignupInput,
  inviteeSignupResponse,
  registerEmailInput,
  registerEmailResponse,
  resetPasswordFinishInput,
  resetPasswordFinishResponse,
  resetPasswordRequestInput,
  text,
  validatePinInput,
} from '@vexil/core';
import { clientOf, setSessionCookie } from '../../plugins/auth';
import type { SignupService } from './signup.service';

/** Per client address, on top of each service's per-e-mail limit (docs/product.md §8). */
const MAIL_RATE_LIMIT = { max: 10, timeWindow: '15 minutes' };
const KEY_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };
/** The wizard checks the domain as it is typed (debounced). */
const DOMAIN_CHECK_RATE_LIMIT = { max: 120, timeWindow: '1 minute' };
/** Organisations one client address may create. */
const CREATE_ACCOUNT_RATE_LIMIT = { max: 10, timeWindow: '1 hour' };

const activationKeyParams = z.object({
  activationKey: text({ max: MAX_LENGTH.token, required: 'Activation key is required', trim: false }),
});

export function signupRoutes(deps: { signup: SignupService }): FastifyPluginAsyncZod {
  const { wizard, passwordReset, invitee, findOrganisations } = deps.signup;
  return async (app) => {
    app.post(
      '/api/v1/signup/registeremail',
      {
        config: { public: true, rateLimit: MAIL_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Start a sign-up: e-mail a 6-digit pin and answer the once that goes with it',
          body: registerEmailInput,
          response: { 200: registerEmailResponse },
        },
      },
      (request) => wizard.registerEmail(request.body),
    );

    app.post(
      '/api/v1/signup/validatepin',
      {
        config: { public: true, rateLimit: KEY_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Confirm a sign-up with its e-mailed pin (15 minutes, 5 tries)',
          body: validatePinInput,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await wizard.validatePin(request.body);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/v1/signup/checkdomain',
      {
        config: { public: true, rateLimit: DOMAIN_CHECK_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Whether an organisation domain is free; free alternatives when it is not',
          body: checkDomainInput,
          response: { 200: checkDomainResponse },
        },
      },
      (request) => wizard.checkDomain(request.body.domain),
    );

    app.post(
      '/api/v1/signup/createaccount',
      {
        config: { public: true, rateLimit: CREATE_ACCOUNT_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary:
            'Create the organisation, its admin and a first project; answers a one-time login token for it',
          body: createAccountInput,
          response: { 200: createAccountResponse },
        },
      },
      (request) => wizard.createAccount(request.body),
    );

    app.post(
      '/api/account/reset_password/init',
      {
        config: { public: true, rateLimit: MAIL_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'E-mail a password reset link; answers alike whether or not the address has an account',
          body: resetPasswordRequestInput,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await passwordReset.request({ ...request.body, hostOrganisation: request.hostOrganisation });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/account/reset_password/finish',
      {
        config: { public: true, rateLimit: KEY_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Set a new password with the key of a reset e-mail; ends every session of the member',
          body: resetPasswordFinishInput,
          response: { 200: resetPasswordFinishResponse },
        },
      },
      (request) => passwordReset.finish(request.body),
    );

    app.get(
      '/api/v1/signup/invitee/:activationKey',
      {
        config: { public: true, rateLimit: KEY_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Who an invitation link is for',
          params: activationKeyParams,
          response: { 200: inviteeSchema },
        },
      },
      (request) => invitee.find(request.params.activationKey, request.hostOrganisation),
    );

    app.post(
      '/api/v1/signup/invitee',
      {
        config: { public: true, rateLimit: KEY_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'Accept an invitation: set names and password, then sign in',
          body: inviteeSignupInput,
          response: { 200: inviteeSignupResponse },
        },
      },
      async (request, reply) => {
        const { session, domain } = await invitee.accept(
          request.body,
          request.hostOrganisation,
          clientOf(request),
        );
        setSessionCookie(request, reply, session);
        return { id_token: session.token, domain };
      },
    );

    app.post(
      '/api/v1/account/findorganisations',
      {
        config: { public: true, rateLimit: MAIL_RATE_LIMIT },
        schema: {
          tags: ['account'],
          summary: 'E-mail the sign-in addresses of the organisations an address belongs to',
          body: findOrganisationInput,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await findOrganisations.send(request.body);
        return reply.code(204).send(null);
      },
    );
  };
}
