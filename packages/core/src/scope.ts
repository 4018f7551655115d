/**
 * How one domain refers to the project and environment another owns: the facts a rule, a permission
 * or an audit entry needs, without the owner's full record.
 */

/** A live project. */
export type ProjectRef = { id: string; key: string; name: string };

/** A live environment of a live project, with the facts permissions and SDK registration read. */
export type EnvironmentRef = {
  id: string;
  key: string;
  name: string;
  production: boolean;
  tags: string[];
  /** Whether SDK registration may create the features it declares here. */
  sdkCanCreateFeatures: boolean;
  project: ProjectRef;
};

/** A member as other records name them: "First Last", or the e-mail when both names are empty. */
export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}
