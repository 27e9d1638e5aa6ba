import { z } from 'zod';

/** `POST /api/contact` (201): the stored message's id and the thanks to show. */
export const contactReplySchema = z.object({ id: z.number().int(), message: z.string() });
