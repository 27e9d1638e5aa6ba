import type { OperationId } from '@ai-editor/core';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { type ClickMode, PreparedSelection, placeOn, type SelectionPrompt } from '../selectObject';
import { type Stroke, selectionStroke } from './mask';
import { useMaskRequest } from './useMaskRequest';

type Point = { x: number; y: number; label: 0 | 1 };
type Box = { x0: number; y0: number; x1: number; y1: number };

/** The selection being refined: what was asked (photo pixels), its step on the ladder, and its stroke. */
interface Current {
  points: Point[];
  box?: Box;
  level: number;
  smaller: number;
  larger: number;
  stroke: Stroke;
}

/**
 * Select object: the photo is sent once, when `prepare` first holds for it (the server computes what every click
 * needs and answers an id); each click, box, added or removed point, or step smaller or larger then sends
 * coordinates only. The answer replaces the selection being refined (one stroke, which Undo removes). A photo the
 * server no longer holds is sent again, without a word to the visitor. `status` is for screen readers; `error` is
 * shown beside the photo (a toast would cover the photo's corner while the visitor works on it).
 */
export function useSelectionRequest({
  file,
  operation,
  prepare,
  canvasRef,
  imgRef,
  add,
  remove,
  has,
}: {
  file: File;
  operation: OperationId;
  /** Prepare the photo for its first click now (once per photo; a click prepares it anyway). */
  prepare: boolean;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  imgRef: RefObject<HTMLImageElement | null>;
  add(stroke: Stroke, draw: boolean): void;
  remove(stroke: Stroke): void;
  /** Whether a stroke is on the canvas (not undone). */
  has(stroke: Stroke): boolean;
}) {
  const request = useMaskRequest(file);
  const [current, setCurrent] = useState<Current | null>(null);
  const prepared = useRef<{ photo: PreparedSelection; abort: AbortController } | null>(null);

  useEffect(() => {
    setCurrent(null);
    return () => {
      prepared.current?.abort.abort();
      prepared.current = null;
    };
  }, [file]);

  /** This photo on the server (prepared on first need, once per photo). */
  const photo = (): PreparedSelection => {
    if (prepared.current?.photo.file !== file) {
      const abort = new AbortController();
      prepared.current = { photo: new PreparedSelection(file, operation, abort.signal), abort };
    }
    return prepared.current.photo;
  };

  useEffect(() => {
    if (prepare)
      photo()
        .prepare()
        .catch(() => undefined);
  }, [prepare, file]);

  /** Photo pixels per canvas pixel (the canvas may be smaller than the photo: maskSize). */
  const scale = () => {
    const canvas = canvasRef.current;
    const img = imgRef.current;
    return canvas && img
      ? { canvas, sx: img.naturalWidth / canvas.width, sy: img.naturalHeight / canvas.height }
      : null;
  };

  /** The selection being refined, if it is still on the canvas. */
  const live = current && has(current.stroke) ? current : null;

  const run = async (ask: { points: Point[]; box?: Box; level: number }, done: string) => {
    const s = scale();
    if (!s) return;
    await request.run(
      'Selecting the object…',
      async () => {
        const answer = await photo().select(() => ask);
        return { answer, stroke: await selectionStroke(answer.mask, placeOn(answer, s.canvas.width, s.canvas.height)) };
      },
      ({ answer, stroke }) => {
        if (live) remove(live.stroke);
        add(stroke, true);
        setCurrent({ ...ask, smaller: answer.smaller, larger: answer.larger, stroke });
        return done;
      },
    );
  };

  /** A click or a box on the canvas (canvas pixels). */
  const select = async (prompt: SelectionPrompt, mode: ClickMode = 'new') => {
    const s = scale();
    if (!s) return;
    if ('x0' in prompt) {
      const box = { x0: prompt.x0 * s.sx, y0: prompt.y0 * s.sy, x1: prompt.x1 * s.sx, y1: prompt.y1 * s.sy };
      return run(
        { points: [], box, level: 0 },
        'Object selected. Refine it with the brush or the eraser; Undo removes it.',
      );
    }
    const point = { x: prompt.x * s.sx, y: prompt.y * s.sy };
    const how = prompt.mode ?? mode;
    if (how !== 'new' && live) {
      const points = [...live.points, { ...point, label: how === 'add' ? (1 as const) : (0 as const) }];
      return run(
        { points, box: live.box, level: live.level },
        how === 'add' ? 'Added to the selection.' : 'Taken away from the selection.',
      );
    }
    return run(
      { points: [{ ...point, label: 1 }], level: 0 },
      'Object selected. Smaller and Larger change what is selected; the brush and the eraser refine it.',
    );
  };

  /** One step smaller (-1) or larger (+1) from the selection being refined. */
  const step = (delta: -1 | 1) => {
    if (!live || live.box) return;
    void run(
      { points: live.points, level: live.level + delta },
      delta > 0 ? 'A larger selection.' : 'A smaller selection.',
    );
  };

  return {
    selecting: request.busy,
    status: request.status,
    error: request.error,
    select,
    step,
    canSmaller: Boolean(live && !live.box && live.smaller > 0),
    canLarger: Boolean(live && !live.box && live.larger > 0),
    refining: Boolean(live),
  };
}
