/*
 * What the sign-up wizard has been told so far, kept for the browser tab (sessionStorage) so that a
 * reload, or /activate, resumes it; the password is never stored.
 */

export type SignupValues = {
  email: string;
  once: string;
  pin: string;
  /** Whether the pin was accepted (step 0 done). */
  confirmed: boolean;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  organisationName: string;
  organisationDomain: string;
  /** Whether the domain was typed, not derived from the organisation name. */
  domainTouched: boolean;
};

export const EMPTY_SIGNUP: SignupValues = {
  email: '',
  once: '',
  pin: '',
  confirmed: false,
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  organisationName: '',
  organisationDomain: '',
  domainTouched: false,
};

const STORAGE_KEY = 'vexil.signup';

export function saveSignup(values: SignupValues): void {
  try {
    const { password: _password, confirmPassword: _confirm, ...kept } = values;
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Storage refused (private mode): the wizard still works, it only does not survive a reload.
  }
}

export function loadSignup(): SignupValues | null {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    if (!stored) return null;
    const parsed = JSON.parse(stored) as Partial<SignupValues>;
    return { ...EMPTY_SIGNUP, ...parsed, password: '', confirmPassword: '' };
  } catch {
    return null;
  }
}

export function clearSignup(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** /activate resumes a sign-up whose e-mail was confirmed in this tab (docs/product.md §2). */
export function hasConfirmedSignup(): boolean {
  return loadSignup()?.confirmed === true;
}
