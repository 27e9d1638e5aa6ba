import type { FastifyRequest } from 'fastify';
import type { UploadedFile } from '../services/uploads.js';

/** Reads a multipart form whole: its text fields by name and its files in order (limits: app.ts). */
export async function readForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'file') files.push({ field: part.fieldname, bytes: await part.toBuffer() });
    else fields[part.fieldname] = String(part.value);
  }
  return { fields, files };
}
