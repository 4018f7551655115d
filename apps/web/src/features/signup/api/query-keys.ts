export const signupKeys = {
  invitee: (activationKey: string) => ['signup', 'invitee', activationKey] as const,
};
