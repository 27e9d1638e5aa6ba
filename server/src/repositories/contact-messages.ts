import type { Database } from '../adapters/db.js';
import { contactMessages } from '../db/schema.js';

export interface NewContactMessage {
  name: string;
  email: string;
  message: string;
  ip: string;
}

/** Messages sent through the contact page. */
export class ContactMessageRepository {
  constructor(private readonly db: Database) {}

  async save({ name, email, message, ip }: NewContactMessage): Promise<{ id: number }> {
    const [row] = await this.db
      .insert(contactMessages)
      .values({ name, email, message, clientIp: ip })
      .returning({ id: contactMessages.id });
    if (!row) throw new Error('insert returned no row');
    return row;
  }
}
