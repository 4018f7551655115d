/** An organisation as other modules name it. */
export type OrganisationRef = { id: string; name: string; domain: string };

/** What a new organisation is created with (sign-up); its domain is normalised already. */
export type NewOrganisation = { name: string; domain: string };
