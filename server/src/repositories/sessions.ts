import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../adapters/db.js';
import { images, sessionBindings } from '../db/schema.js';

export type SessionBinding = typeof sessionBindings.$inferSelect;

/** The signed-in user's profile as kept with a session. */
export interface BoundUser {
  uid: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  picture?: string;
}

/** Sessions bound to signed-in users. */
export class SessionRepository {
  constructor(private readonly db: Database) {}

  async find(sessionId: string): Promise<SessionBinding | undefined> {
    const [binding] = await this.db.select().from(sessionBindings).where(eq(sessionBindings.sessionId, sessionId));
    return binding;
  }

  /**
   * Binds a fresh session id to the user (the old one is dropped, against session fixation), in one transaction with
   * moving the jobs the visitor made as a guest in this browser to the user: they were made by the same person, and
   * signing in to download a guest result is the product's own path. They are not counted against the daily limit.
   */
  async bind(oldSessionId: string, newSessionId: string, user: BoundUser): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(sessionBindings).where(eq(sessionBindings.sessionId, oldSessionId));
      await tx.insert(sessionBindings).values({
        sessionId: newSessionId,
        uid: user.uid,
        email: user.email ?? null,
        emailVerified: user.emailVerified ?? false,
        name: user.name ?? null,
        picture: user.picture ?? null,
      });
      await tx
        .update(images)
        .set({ ownerUid: user.uid, updatedAt: new Date() })
        .where(and(eq(images.ownerSession, oldSessionId), isNull(images.ownerUid)));
    });
  }

  async unbind(sessionId: string): Promise<void> {
    await this.db.delete(sessionBindings).where(eq(sessionBindings.sessionId, sessionId));
  }
}
