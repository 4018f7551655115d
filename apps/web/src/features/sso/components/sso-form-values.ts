import type { FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import {
  ASSIGNABLE_AUTHORITIES,
  AUTHORITIES,
  AUTHORITY_LABELS,
  ssoConnectionInput,
  type SsoConnection,
  type SsoConnectionInput,
} from '@vexil/core';

/*
 * What the single sign-on form (sso-form.tsx) edits: its values from the stored connection, what PUT
 * /api/v1/sso is sent, and how the server's and the schema's errors map back to its fields.
 */

export const ROLE_OPTIONS = ASSIGNABLE_AUTHORITIES.map((authority) => ({
  value: authority,
  label: AUTHORITY_LABELS[authority],
}));

/** The form: the connection's input, plus whether to clear a stored secret (sent as an empty secret). */
export const ssoForm = ssoConnectionInput.extend({ clearSecret: z.boolean() });
export type SsoFormValues = z.input<typeof ssoForm>;
export type SsoFormOutput = z.output<typeof ssoForm>;
export type Field = Exclude<keyof SsoFormValues, 'clearSecret'>;

export const FIELDS: readonly Field[] = [
  'displayName',
  'issuer',
  'clientId',
  'clientSecret',
  'allowedDomains',
  'defaultRole',
  'required',
];

export function valuesOf(connection: SsoConnection | null): SsoFormValues {
  return {
    displayName: connection?.displayName ?? '',
    issuer: connection?.issuer ?? '',
    clientId: connection?.clientId ?? '',
    clientSecret: '',
    clearSecret: false,
    allowedDomains: connection ? [...connection.allowedDomains] : [],
    defaultRole: connection?.defaultRole ?? AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
    required: connection?.required ?? false,
  };
}

/**
 * What PUT /api/v1/sso is sent: a typed secret replaces the stored one; an empty field keeps it (or
 * leaves the client without one); "clear" sends an empty secret, which removes it.
 */
export function inputOf(values: SsoFormOutput, hasClientSecret: boolean): SsoConnectionInput {
  const { clearSecret, clientSecret, ...rest } = values;
  if (clientSecret) return { ...rest, clientSecret };
  if (hasClientSecret && clearSecret) return { ...rest, clientSecret: '' };
  return rest;
}

/** A domain as people type it ("@Example.com ") as the server keeps it ("example.com"). */
export function normaliseDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@+/, '');
}

/** The first message about the allowed domains: the list's own, else the first refused domain's. */
export function domainsError(
  errors: FieldErrors<SsoFormValues>,
  domains: readonly string[],
): string | undefined {
  const error = errors.allowedDomains;
  if (!error) return undefined;
  if (error.message) return error.message;
  if (Array.isArray(error)) {
    const index = error.findIndex((item) => item?.message);
    if (index !== -1) {
      const message = (error[index] as { message: string }).message;
      return domains[index] ? `${domains[index]}: ${message}` : message;
    }
  }
  return undefined;
}

/** The server's field for a form field: `allowedDomains.2` is the allowed domains. */
export function formFieldOf(field: string): Field | undefined {
  const [head] = field.split(/[.[]/);
  return FIELDS.find((name) => name === head);
}
