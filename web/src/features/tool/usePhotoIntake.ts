import { type ErrorCode, errorMessage, errorTitle, type Operation } from '@ai-editor/core';
import { useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { batchable, MAX_BATCH } from './batch';
import { checkImageFile } from './validate';

const refuse = (code: ErrorCode, vars?: Record<string, string | number>) =>
  toast({ variant: 'destructive', title: errorTitle(code), description: errorMessage(code, vars) });

/**
 * Where photos given to a tool page go, however they came (dropped on the page, pasted, or several chosen):
 * one becomes the photo (checked with the server's rules first); several become a batch on tools that take one,
 * and are refused with the catalogue's message on the others.
 */
export function usePhotoIntake(op: Operation, setFile: (file: File) => void, maxBytes?: number) {
  const [batch, setBatch] = useState<File[] | null>(null);
  const canBatch = batchable(op);
  const take = (files: File[]) => {
    if (files.length > 1) {
      if (!canBatch) return refuse('TOO_MANY_FILES');
      if (files.length > MAX_BATCH) return refuse('BATCH_TOO_MANY', { max: MAX_BATCH });
      setBatch(files);
      return;
    }
    const code = checkImageFile(files[0], maxBytes);
    if (code) return refuse(code);
    setFile(files[0] as File);
  };
  return { take, batch, canBatch, exitBatch: () => setBatch(null) };
}
