import { formatByMime } from './formats.js';

/**
 * The name a result is saved under, everywhere (tool page, result page, editor, the API's attachment): the tool and
 * the job, so that several downloads do not overwrite each other and each says what it is, e.g.
 * `background-removal-123.png`; the second and later results of a job are numbered (`…-123-2.png`).
 */
export function resultFileName(operation: string, jobId: number, index = 0, extension = 'png'): string {
  return `${operation}-${jobId}${index === 0 ? '' : `-${index + 1}`}.${extension}`;
}

/** The file extension of a result's content type (PNG unless the job asked for another format). */
export function extensionFor(contentType: string): string {
  return formatByMime(contentType)?.extensions[0] ?? 'png';
}
