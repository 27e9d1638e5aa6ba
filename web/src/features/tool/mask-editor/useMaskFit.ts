import type { OperationId } from '@ai-editor/core';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { ToolError } from '../jobs';
import { requestFit } from '../selectObject';
import { exportMask, type Stroke, selectionLayer } from './mask';

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
  const [fitting, setFitting] = useState(false);
  const [fit, setFit] = useState<Stroke | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    setFit(null);
    setError(null);
    return () => abortRef.current?.abort();
  }, [file]);

  const start = async () => {
    const canvas = canvasRef.current;
    if (!canvas || fitting) return;
    const painted = await exportMask(canvas);
    if (!painted) return;
    const abort = new AbortController();
    abortRef.current = abort;
    setFitting(true);
    setError(null);
    setStatus('Fitting the mask to the object…');
    try {
      const png = await requestFit(file, operation, painted, abort.signal);
      const layer = await selectionLayer(png, canvas.width, canvas.height);
      if (abort.signal.aborted) return;
      const stroke: Stroke = { kind: 'select', layer };
      add(stroke, true);
      setFit(stroke);
      setStatus('The mask now fits the object. Use my painted mask goes back to what you painted.');
    } catch (err) {
      if (abort.signal.aborted) return;
      const e = ToolError.from(err);
      setError(e.message);
      setStatus(e.message);
    } finally {
      if (abortRef.current === abort) {
        abortRef.current = null;
        setFitting(false);
      }
    }
  };

  const back = () => {
    if (!fit) return;
    remove(fit);
    setFit(null);
    setStatus('Back to the mask you painted.');
  };

  return { fitting, fit, error, status, start, back };
}
