import { z } from 'zod';
import { plainText } from './text.js';

/** The contact form's rules: checked in the browser for instant feedback and again on the server. */
export const CONTACT_LIMITS = { name: 100, email: 254, messageMin: 10, messageMax: 5000 } as const;

export const contactSchema = z.object({
  name: plainText()
    .trim()
    .min(1, 'Please enter your name')
    .max(CONTACT_LIMITS.name, `Name must be at most ${CONTACT_LIMITS.name} characters`),
  email: plainText()
    .trim()
    .min(1, 'Please enter your email address')
    .max(CONTACT_LIMITS.email, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  message: plainText()
    .trim()
    .min(CONTACT_LIMITS.messageMin, `Message must be at least ${CONTACT_LIMITS.messageMin} characters`)
    .max(CONTACT_LIMITS.messageMax, `Message must be at most ${CONTACT_LIMITS.messageMax} characters`),
});

export type ContactMessage = z.infer<typeof contactSchema>;
export type ContactInput = z.input<typeof contactSchema>;
export type ContactErrors = Partial<Record<keyof ContactInput, string>>;

/** The first problem of each field, as the form shows them. */
export function validateContact(input: ContactInput): ContactErrors {
  const parsed = contactSchema.safeParse(input);
  const errors: ContactErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as keyof ContactInput;
    errors[field] ??= issue.message;
  }
  return errors;
}
