import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { drawStroke, redraw, type Stroke } from './mask';
import {
  addStroke,
  clearStrokes,
  emptyHistory,
  hasPaint,
  redoStroke,
  removeStroke,
  type StrokeHistory,
  undoStroke,
} from './strokeHistory';

/**
 * The mask's strokes and the redo stack (strokeHistory.ts), drawn on the canvas: a stroke is added once finished
 * (or a selection once it arrives), undo redraws the rest, redo draws one back, clear is itself a stroke (so it
 * can be undone).
 */
export function useStrokeHistory(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  onPaintChange: ((hasPaint: boolean) => void) | undefined,
) {
  // A ref, not state: the callbacks (a finished stroke, an answered selection) read and change it between renders.
  const history = useRef<StrokeHistory>(emptyHistory);
  const [, setVersion] = useState(0);

  const ctx = useCallback(() => canvasRef.current?.getContext('2d') ?? null, [canvasRef]);

  /** Draws every kept stroke again (after an undo, a dropped stroke, or a new canvas size). */
  const redrawAll = useCallback(() => {
    const c = ctx();
    if (c) redraw(c, history.current.strokes);
  }, [ctx]);

  /** Keeps the new history and brings the canvas to it: the last stroke drawn on, everything redrawn, or nothing. */
  const commit = useCallback(
    (next: StrokeHistory, draw: 'last' | 'all' | 'none') => {
      if (next === history.current) return;
      history.current = next;
      const last = next.strokes.at(-1);
      const c = ctx();
      if (c && draw === 'last' && last) drawStroke(c, last);
      if (draw === 'all') redrawAll();
      setVersion((v) => v + 1);
      onPaintChange?.(hasPaint(next));
    },
    [ctx, redrawAll, onPaintChange],
  );

  const reset = useCallback(() => {
    history.current = emptyHistory;
    setVersion((v) => v + 1);
    onPaintChange?.(false);
  }, [onPaintChange]);

  /** Keeps a stroke, drawing it first unless it is on the canvas already (drawn while the pointer moved). */
  const add = useCallback(
    (stroke: Stroke, draw: boolean) => commit(addStroke(history.current, stroke), draw ? 'last' : 'none'),
    [commit],
  );
  const undo = useCallback(() => commit(undoStroke(history.current), 'all'), [commit]);
  const redo = useCallback(() => commit(redoStroke(history.current), 'last'), [commit]);
  /** Takes one stroke out wherever it is in the list (Use my painted mask drops the fitted mask). */
  const remove = useCallback((stroke: Stroke) => commit(removeStroke(history.current, stroke), 'all'), [commit]);
  const clear = () => commit(clearStrokes(history.current), 'last');

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
    has: (stroke: Stroke | null) => stroke !== null && history.current.strokes.includes(stroke),
    hasPaint: hasPaint(history.current),
    canUndo: history.current.strokes.length > 0,
    canRedo: history.current.undone.length > 0,
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
