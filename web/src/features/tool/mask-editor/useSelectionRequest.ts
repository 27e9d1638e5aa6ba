import type { OperationId } from '@ai-editor/core';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { ToolError } from '../jobs';
import { type Stroke, selectionLayer } from './mask';
import { requestPreparation, requestSelection, type SelectionPrompt } from './selectObject';

/**
 * Select object: asks the server for the object at a point or in a box (canvas pixels) and hands its mask over as
 * one stroke. One request at a time; a new photo drops the one still running. `status` is for screen readers;
 * `error` is shown beside the photo (a toast would cover the photo's corner while the visitor works on it).
 */
export function useSelectionRequest({
  file,
  operation,
  active,
  canvasRef,
  imgRef,
  onSelected,
}: {
  file: File;
  operation: OperationId;
  /** Select object is the chosen tool: the photo is prepared for its first click (once per photo). */
  active: boolean;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  imgRef: RefObject<HTMLImageElement | null>;
  onSelected(stroke: Stroke): void;
}) {
  const [selecting, setSelecting] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const selectAbort = useRef<AbortController | null>(null);

  useEffect(() => {
    setError(null);
    return () => selectAbort.current?.abort();
  }, [file]);

  // The first time Select object is chosen for a photo, the server prepares it (the click is then quick); the
  // request is dropped with the photo (a new one, or the editor closed), and the server stops with it.
  const prepared = useRef<{ file: File; abort: AbortController } | null>(null);
  useEffect(() => {
    if (!active || prepared.current?.file === file) return;
    const abort = new AbortController();
    prepared.current = { file, abort };
    void requestPreparation(file, operation, abort.signal);
  }, [active, file]);
  useEffect(() => () => prepared.current?.abort.abort(), [file]);

  const select = async (prompt: SelectionPrompt) => {
    const canvas = canvasRef.current;
    const img = imgRef.current;
    if (!canvas || !img || selecting) return;
    // The canvas may be smaller than the photo (maskSize): the server wants the photo's pixels.
    const sx = img.naturalWidth / canvas.width;
    const sy = img.naturalHeight / canvas.height;
    const scaled: SelectionPrompt =
      'x' in prompt
        ? { x: prompt.x * sx, y: prompt.y * sy }
        : { x0: prompt.x0 * sx, y0: prompt.y0 * sy, x1: prompt.x1 * sx, y1: prompt.y1 * sy };
    const abort = new AbortController();
    selectAbort.current = abort;
    setSelecting(true);
    setError(null);
    setStatus('Selecting the object…');
    try {
      const png = await requestSelection(file, operation, scaled, abort.signal);
      const layer = await selectionLayer(png, canvas.width, canvas.height);
      if (abort.signal.aborted) return;
      onSelected({ kind: 'select', layer });
      setStatus('Object selected. Refine it with the brush or the eraser; Undo removes it.');
    } catch (err) {
      if (abort.signal.aborted) return;
      const e = err instanceof ToolError ? err : ToolError.of('PROCESS_FAILED');
      setStatus(e.message);
      setError(e.message);
    } finally {
      if (selectAbort.current === abort) {
        selectAbort.current = null;
        setSelecting(false);
      }
    }
  };

  return { selecting, status, error, select };
}
