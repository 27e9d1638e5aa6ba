import { LIMITS } from '@ai-editor/core';

/** Human forms of the limits, taken from core so the copy can never drift from what the server enforces. */
export const MAX_UPLOAD_TEXT = `${LIMITS.maxUploadBytes / (1024 * 1024)}MB`;
export const RETENTION_TEXT = `${LIMITS.retentionHours} hours`;
export const DAILY_USES = LIMITS.dailyUsesPerOperation;
