import { AppError } from '@ai-editor/core';

/** What a promise ended in: 'resolved', the catalogue code of the AppError it was refused with, or the error itself. */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (err) => (err instanceof AppError ? err.code : err),
  );
