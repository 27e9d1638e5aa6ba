import type { OperationId } from '@ai-editor/core';
import { type RefObject, useEffect, useState } from 'react';
import { requestFit } from '../selectObject';
import { exportMask, type Stroke, selectionStroke } from './mask';
import { useMaskRequest } from './useMaskRequest';

/**
 * Fit mask to object: sends the painted mask to the server, which fits it to the object the strokes cover, and
 * shows the fitted mask as one more stroke over the painted ones; `back` takes that stroke out again (Use my
 * painted mask). A new photo drops a fit still running.
 */
export function useMaskFit({
  file,
  operation,
  canvasRef,
  add,
  remove,
}: {
  file: File;
  operation: OperationId;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  add(stroke: Stroke, draw: boolean): void;
  remove(stroke: Stroke): void;
}) {
  const request = useMaskRequest(file);
  const [fit, setFit] = useState<Stroke | null>(null);

  useEffect(() => {
    setFit(null);
  }, [file]);

  const start = async () => {
    const canvas = canvasRef.current;
    if (!canvas || request.busy) return;
    const painted = await exportMask(canvas);
    if (!painted) return;
    await request.run(
      'Fitting the mask to the object…',
      async (signal) =>
        selectionStroke(await requestFit(file, operation, painted, signal), {
          x: 0,
          y: 0,
          width: canvas.width,
          height: canvas.height,
        }),
      (stroke) => {
        add(stroke, true);
        setFit(stroke);
        return 'The mask now fits the object. Use my painted mask goes back to what you painted.';
      },
    );
  };

  const back = () => {
    if (!fit) return;
    remove(fit);
    setFit(null);
    request.setStatus('Back to the mask you painted.');
  };

  return { fitting: request.busy, fit, error: request.error, status: request.status, start, back };
}
