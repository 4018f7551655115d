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

/**
 * A member as the dashboard and other records name them: "First Last", or the e-mail address when
 * the member has no name yet (both names empty or blank).
 */
export function displayName(user: {
  firstName?: string | null;
  lastName?: string | null;
  email: string;
}): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user.email;
}
