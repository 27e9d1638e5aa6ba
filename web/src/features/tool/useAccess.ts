/**
 * The tool pages' seam for the rules, filled by the sign-in feature: what the visitor may do with an operation,
 * read from the server's `GET /api/me` (web/src/features/auth/useAccess.ts).
 */
export { type Access, useAccess } from '@/features/auth/useAccess';
