import { z } from 'zod';

/** Control characters but tab and line breaks (C0, DEL, C1): nobody types them, and PostgreSQL refuses NUL. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** The reason a text field with a control character is refused (400 INVALID_PARAMETER names the field). */
export const NO_CONTROL_CHARACTERS = 'must not contain control characters';

export const hasControlCharacters = (text: string) => CONTROL_CHARACTERS.test(text);

/** A string of text the API takes (a name, a message, an address, a uid): control characters are refused. */
export const plainText = (reason = NO_CONTROL_CHARACTERS) =>
  z.string().refine((text) => !hasControlCharacters(text), reason);
