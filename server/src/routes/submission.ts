import { AppError, type OperationId } from '@ai-editor/core';
import type { FastifyRequest } from 'fastify';
import { knownOperation, type Submission, type UploadedFile } from '../services/uploads.js';

/**
 * Reads a multipart submission. The operation may come in the query string (`?operation=…`) or as a form field;
 * `onOperation` runs as soon as it is known, before any later part is read, so that a refusal that depends only
 * on who asks for what (the guest rules) is answered without taking the upload in. The web client sends it in
 * the query string; a form whose first field is `operation` is answered as early.
 */
export async function readSubmission(
  request: FastifyRequest,
  onOperation: (operation: OperationId) => Promise<void>,
): Promise<Submission> {
  const inQuery = (request.query as { operation?: string } | undefined)?.operation;
  let operation: OperationId | undefined;
  if (inQuery !== undefined) {
    operation = knownOperation(inQuery);
    await onOperation(operation);
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      files.push({ field: part.fieldname, bytes: await part.toBuffer() });
    } else if (part.fieldname !== 'operation') {
      fields[part.fieldname] = String(part.value);
    } else if (operation === undefined) {
      operation = knownOperation(String(part.value));
      await onOperation(operation);
    } else if (String(part.value) !== operation) {
      throw new AppError('BAD_REQUEST', { reason: 'The operation in the address and in the form differ' });
    }
  }
  return { operation: knownOperation(operation), fields, files };
}
