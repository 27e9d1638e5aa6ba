import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { drawStroke, mayHavePaint, redraw, type Stroke } from './mask';

/**
 * The mask's strokes and the redo stack, drawn on the canvas: a stroke is added once finished (or a selection once
 * it arrives), undo redraws the rest, redo draws one back, clear is itself a stroke (so it can be undone).
 */
export function useStrokeHistory(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  onPaintChange: ((hasPaint: boolean) => void) | undefined,
) {
  const strokes = useRef<Stroke[]>([]);
  const redoStack = useRef<Stroke[]>([]);
  const [, setVersion] = useState(0);

  const ctx = useCallback(() => canvasRef.current?.getContext('2d') ?? null, [canvasRef]);
  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    onPaintChange?.(mayHavePaint(strokes.current));
  }, [onPaintChange]);

  /** Draws every kept stroke again (after an undo, a dropped stroke, or a new canvas size). */
  const redrawAll = useCallback(() => {
    const c = ctx();
    if (c) redraw(c, strokes.current);
  }, [ctx]);

  const reset = useCallback(() => {
    strokes.current = [];
    redoStack.current = [];
    changed();
  }, [changed]);

  /** Keeps a stroke, drawing it first unless it is on the canvas already (drawn while the pointer moved). */
  const add = useCallback(
    (stroke: Stroke, draw: boolean) => {
      strokes.current.push(stroke);
      redoStack.current = [];
      if (draw) {
        const c = ctx();
        if (c) drawStroke(c, stroke);
      }
      changed();
    },
    [ctx, changed],
  );

  const undo = useCallback(() => {
    const s = strokes.current.pop();
    if (!s) return;
    redoStack.current.push(s);
    redrawAll();
    changed();
  }, [changed, redrawAll]);

  const redo = useCallback(() => {
    const s = redoStack.current.pop();
    if (!s) return;
    strokes.current.push(s);
    const c = ctx();
    if (c) drawStroke(c, s);
    changed();
  }, [changed, ctx]);

  /** Takes one stroke out wherever it is in the list (Use my painted mask drops the fitted mask). */
  const remove = useCallback(
    (stroke: Stroke) => {
      const at = strokes.current.indexOf(stroke);
      if (at < 0) return;
      strokes.current.splice(at, 1);
      redoStack.current = redoStack.current.filter((s) => s !== stroke);
      redrawAll();
      changed();
    },
    [changed, redrawAll],
  );

  const clear = () => {
    if (!mayHavePaint(strokes.current)) return;
    add({ kind: 'clear' }, true);
  };

  return {
    ctx,
    redrawAll,
    reset,
    add,
    undo,
    redo,
    clear,
    remove,
    /** Whether this stroke is on the canvas (not undone, removed or never added). */
    has: (stroke: Stroke | null) => stroke !== null && strokes.current.includes(stroke),
    hasPaint: mayHavePaint(strokes.current),
    canUndo: strokes.current.length > 0,
    canRedo: redoStack.current.length > 0,
  };
}

/** Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes, anywhere on the page but in a form field. */
export function useUndoKeys(disabled: boolean, undo: () => void, redo: () => void) {
  useEffect(() => {
    if (disabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [disabled, undo, redo]);
}
