import { useMutation, useQuery } from '@tanstack/react-query';
import {
  checkDomainResponse,
  createAccountResponse,
  registerEmailResponse,
  type CheckDomainResponse,
  type CreateAccountInput,
  type CreateAccountResponse,
  type RegisterEmailResponse,
  type ValidatePinInput,
} from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { signupKeys } from './query-keys';

/* The sign-up wizard's calls (docs/product.md §7 "Session and account"). */

const signedOut = { authenticated: false, notifyErrors: false } as const;

/**
 * POST /api/v1/signup/registeremail: e-mails a pin, answers the `once` that goes with it; with
 * `previousOnce` the pin of that once stops working.
 */
export function registerEmail(input: {
  email: string;
  beta: boolean;
  previousOnce?: string;
}): Promise<RegisterEmailResponse> {
  return apiClient.post('/api/v1/signup/registeremail', input, {
    schema: registerEmailResponse,
    ...signedOut,
  });
}

export function useRegisterEmail() {
  return useMutation({ mutationFn: registerEmail });
}

/** POST /api/v1/signup/validatepin: resolves when the pin is right. */
export async function validatePin(input: ValidatePinInput): Promise<void> {
  await apiClient.post('/api/v1/signup/validatepin', input, signedOut);
}

export function useValidatePin() {
  return useMutation({ mutationFn: validatePin });
}

/** POST /api/v1/signup/checkdomain: whether the domain is free, else free suggestions. */
export function checkDomain(domain: string, signal?: AbortSignal): Promise<CheckDomainResponse> {
  return apiClient.post(
    '/api/v1/signup/checkdomain',
    { domain },
    { schema: checkDomainResponse, ...signedOut, ...(signal ? { signal } : {}) },
  );
}

/** The availability of a (normalised) domain; idle while `domain` is null. */
export function useDomainCheck(domain: string | null) {
  return useQuery({
    queryKey: signupKeys.domain(domain ?? ''),
    queryFn: ({ signal }) => checkDomain(domain!, signal),
    enabled: domain !== null,
    staleTime: 10_000,
    retry: false,
  });
}

/** POST /api/v1/signup/createaccount: a one-time login token for the new organisation. */
export function createAccount(
  input: CreateAccountInput & { confirmPassword: string },
): Promise<CreateAccountResponse> {
  return apiClient.post('/api/v1/signup/createaccount', input, {
    schema: createAccountResponse,
    ...signedOut,
  });
}

export function useCreateAccount() {
  return useMutation({ mutationFn: createAccount });
}
