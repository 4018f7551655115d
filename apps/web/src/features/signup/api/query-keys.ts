export const signupKeys = {
  invitee: (activationKey: string) => ['signup', 'invitee', activationKey] as const,
  domain: (domain: string) => ['signup', 'domain', domain] as const,
};
