import type { Operation } from '@ai-editor/core';
import { useState } from 'react';
import { errorToast } from '../errorToast';
import { batchable, MAX_BATCH } from './batch';
import { checkPhoto } from './validate';

/**
 * Exactly one photo, checked with the server's rules (and decoded), goes to `setFile`; anything else is refused.
 * `onChecking` hears when the decode starts and ends (seconds for a large photo), so the page can wait for it.
 */
export async function takeOnePhoto(
  files: File[],
  setFile: (file: File) => void,
  maxBytes?: number,
  onChecking?: (checking: boolean) => void,
): Promise<void> {
  if (files.length > 1) return errorToast('TOO_MANY_FILES');
  onChecking?.(true);
  const code = await checkPhoto(files[0], maxBytes).finally(() => onChecking?.(false));
  if (code) return errorToast(code);
  setFile(files[0] as File);
}

/**
 * Where photos given to a tool page go, however they came (dropped on the page, pasted, or several chosen):
 * one becomes the photo (checked with the server's rules first); several become a batch on tools that take one,
 * and are refused with the catalogue's message on the others.
 */
export function usePhotoIntake(
  op: Operation,
  setFile: (file: File) => void,
  maxBytes?: number,
  onChecking?: (checking: boolean) => void,
) {
  const [batch, setBatch] = useState<File[] | null>(null);
  const canBatch = batchable(op);
  const take = (files: File[]) => {
    if (files.length > 1 && canBatch) {
      if (files.length > MAX_BATCH) return errorToast('BATCH_TOO_MANY', { max: MAX_BATCH });
      setBatch(files);
      return;
    }
    void takeOnePhoto(files, setFile, maxBytes, onChecking);
  };
  return { take, batch, canBatch, exitBatch: () => setBatch(null) };
}
