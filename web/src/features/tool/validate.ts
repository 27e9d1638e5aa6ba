import {
  ACCEPTED_TYPES,
  AppError,
  type ErrorCode,
  errorTitle,
  isAcceptedMime,
  LIMITS,
  type Operation,
  type Params,
  parseParams,
} from '@ai-editor/core';
import { ToolError } from './jobs';

/** The `accept` map for the file pickers, from core's list. */
export const ACCEPT: Record<string, string[]> = Object.fromEntries(
  ACCEPTED_TYPES.map((t) => [t.mime, [...t.extensions]]),
);

/**
 * SPEC §5 upload rules, as the server checks them (core's limits and types), so the visitor hears at once. The
 * server still decides from the bytes; this only saves a wasted upload.
 */
export function checkImageFile(
  file: File | null | undefined,
  maxBytes: number = LIMITS.maxUploadBytes,
): ErrorCode | undefined {
  if (!file) return 'FILE_REQUIRED';
  if (!isAcceptedMime(file.type)) return 'INVALID_FILE_TYPE';
  if (file.size > maxBytes) return 'FILE_TOO_LARGE';
  return undefined;
}

/** The server's parameter rules (core's parseParams), thrown as a toast-ready error. */
export function checkParams(op: Operation, params: Params): Params {
  try {
    return parseParams(op, params);
  } catch (err) {
    if (err instanceof AppError) throw new ToolError(errorTitle(err.code), err.message);
    throw err;
  }
}
