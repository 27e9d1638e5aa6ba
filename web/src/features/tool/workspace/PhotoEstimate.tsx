import { expectedMs, type OperationId } from '@ai-editor/core';
import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { imageSize } from './validate';

/** "About 19 s" (whole seconds, rounded up; minutes from two minutes on). */
export function formatEstimate(ms: number): string {
  if (ms < 1000) return 'under a second';
  const s = Math.ceil(ms / 1000);
  return s < 120 ? `about ${s} s` : `about ${Math.round(s / 60)} min`;
}

/**
 * Before processing: how long this tool is expected to take for the chosen photo, from the same table of measured
 * durations per megapixel that the server schedules by (core/src/durations.ts). The wait in the queue, if any, is
 * shown once the job is submitted.
 */
export function PhotoEstimate({
  operation,
  file,
  params,
}: {
  operation: OperationId;
  file: File | null;
  params: Record<string, unknown>;
}) {
  const [size, setSize] = useState<{ width: number; height: number }>();
  useEffect(() => {
    let live = true;
    setSize(undefined);
    if (file) void imageSize(file).then((s) => live && setSize(s));
    return () => {
      live = false;
    };
  }, [file]);
  if (!file || !size) return null;
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="photo-estimate">
      <Clock className="size-4" aria-hidden />
      Processing takes {formatEstimate(expectedMs(operation, size, params))} for this photo ({size.width}×{size.height}
      ).
    </p>
  );
}
