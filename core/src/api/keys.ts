import { z } from 'zod';
import { plainText } from '../text.js';
import { rowIdText } from './images.js';

/** The validation message of a key id past the column's range: it names no key, so the server answers 404. */
export const NO_SUCH_KEY = 'names no key';

/** A key's id in the address. */
export const keyIdParams = z.object({ id: rowIdText(NO_SUCH_KEY) });

/** `POST /api/keys`: a name to know the key by. */
export const createKeyBody = z.object({ name: plainText().trim().min(1).max(100) }).strict();

/** `GET /api/keys`: a key as listed; never its secret. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, to recognise it'),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable().describe('Updated at most once a minute'),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `POST /api/keys` (201): the key and its webhook secret, shown this once. */
export const createdKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  key: z.string().describe('Send as Authorization: Bearer <key>. Shown once: only its hash is kept'),
  webhookSecret: z.string().describe('whsec_<base64>: the Standard Webhooks signing secret of this key'),
  createdAt: z.iso.datetime(),
});
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

export const webhookDeliverySchema = z.object({
  id: z.string().describe('The webhook-id header of the message'),
  event: z.enum(['job.completed', 'job.failed']),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']).describe('failed: every retry of a day was refused'),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable().describe("The receiver's HTTP status at the last attempt"),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
