/** An organisation's single sign-on connection as stored: the secret still encrypted. */
export type SsoConnectionRecord = {
  id: string;
  organisationId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** `v1:…` of the secret box, or null for a public client. */
  clientSecretEncrypted: string | null;
  allowedDomains: string[];
  defaultRole: string;
  required: boolean;
  updatedAt: Date;
};

/** What is saved of a connection (PUT /api/v1/sso). */
export type SsoConnectionValues = Omit<SsoConnectionRecord, 'id' | 'organisationId' | 'updatedAt'>;

/** A sign-in under way at the identity provider, as the callback finds it. */
export type SsoAttemptRecord = {
  organisationId: string;
  organisationDomain: string;
  nonce: string;
  codeVerifier: string;
  rememberMe: boolean;
  viaSubDomain: boolean;
  expiresAt: Date;
};

/** The organisation a sign-in is for, with its connection if it has one. */
export type SsoOrganisation = {
  id: string;
  domain: string;
  connection: SsoConnectionRecord | null;
};
