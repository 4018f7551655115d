import type { EnvironmentConstraint, Principal } from '@vexil/core';
import { useChangeRequestPolicy } from '../api/get-change-request-policy';

/** What a protected environment's banner and refusals say. */
export function protectedEnvironmentMessage(environmentName: string): string {
  return `Changes to ${environmentName} go through change requests.`;
}

export type EnvironmentProtection = {
  /** The environment's approval settings ask for change requests (as far as the user may know). */
  required: boolean;
  /** Writes go into a change request rather than live: required, and the user may not bypass it. */
  throughRequest: boolean;
};

/**
 * Whether changes to an environment go through change requests, as the server's policy says it for
 * the user (every member may read it). Until it is known, writes are tried directly and a 409
 * `change_request_required` says it instead.
 */
export function useEnvironmentProtection(
  _user: Principal,
  projectKey: string,
  environment: EnvironmentConstraint & { key: string },
): EnvironmentProtection {
  const policy = useChangeRequestPolicy(projectKey, environment.key).data;
  const required = policy?.required === true;
  return { required, throughRequest: required && !policy.mayBypass };
}
