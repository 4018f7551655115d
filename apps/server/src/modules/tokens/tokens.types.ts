/** A stored personal access token as lists show it: never its hash, never the token. */
export type TokenRecord = {
  id: string;
  name: string;
  /** The scheme prefix (`vxp_`), kept for the masked display. */
  tokenPrefix: string;
  tokenLastFour: string;
  createdAt: Date;
  /** Null: the token does not expire. */
  expiresAt: Date | null;
  /** Null until first used; refreshed at most once a minute. */
  lastUsedAt: Date | null;
};

/** What creating a token stores: its SHA-256, never the token. */
export type NewAccessTokenRecord = {
  organisationId: string;
  userId: string;
  name: string;
  tokenHash: string;
  tokenPrefix: string;
  tokenLastFour: string;
  expiresAt: Date | null;
  createdAt: Date;
};

/** A live token of an activated, live member: what a request's principal is built from. */
export type ActiveAccessToken = {
  tokenId: string;
  userId: string;
  organisationId: string;
  organisationDomain: string;
  email: string;
  /** The owner's authorities as they are now, `ROLE_*` names. */
  authorities: string[];
  /** The token's name, for the audit entry of its first use each day. */
  name: string;
  lastUsedAt: Date | null;
};
