/**
 * Contact form rules, the same as the server's (server/src/routes/contact.ts): checked in the browser first so
 * mistakes show at once, and again on the server, which is the authority.
 */
export const CONTACT_LIMITS = { name: 100, email: 254, messageMin: 10, messageMax: 5000 } as const;

export interface ContactInput {
  name: string;
  email: string;
  message: string;
}

export type ContactErrors = Partial<Record<keyof ContactInput, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateContact(input: ContactInput): ContactErrors {
  const errors: ContactErrors = {};
  const name = input.name.trim();
  const email = input.email.trim();
  const message = input.message.trim();
  if (!name) errors.name = 'Please enter your name';
  else if (name.length > CONTACT_LIMITS.name) errors.name = `Name must be at most ${CONTACT_LIMITS.name} characters`;
  if (!email) errors.email = 'Please enter your email address';
  else if (email.length > CONTACT_LIMITS.email || !EMAIL.test(email))
    errors.email = 'Please enter a valid email address';
  if (message.length < CONTACT_LIMITS.messageMin)
    errors.message = `Message must be at least ${CONTACT_LIMITS.messageMin} characters`;
  else if (message.length > CONTACT_LIMITS.messageMax)
    errors.message = `Message must be at most ${CONTACT_LIMITS.messageMax} characters`;
  return errors;
}
