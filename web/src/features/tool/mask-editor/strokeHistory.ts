import { mayHavePaint, type Stroke } from './mask';

/**
 * The mask editor's undo history: the strokes on the canvas, oldest first, and the ones undone, latest last (what
 * redo brings back). Each change returns a new history, or the same one when it changes nothing. There is no
 * limit: a stroke is a few points (a selection one canvas), so keeping them all costs no image copies.
 */
export interface StrokeHistory {
  readonly strokes: readonly Stroke[];
  readonly undone: readonly Stroke[];
}

export const emptyHistory: StrokeHistory = { strokes: [], undone: [] };

/** A finished stroke (or a selection): what was undone can no longer be redone. */
export function addStroke(history: StrokeHistory, stroke: Stroke): StrokeHistory {
  return { strokes: [...history.strokes, stroke], undone: [] };
}

export function undoStroke(history: StrokeHistory): StrokeHistory {
  const last = history.strokes.at(-1);
  if (!last) return history;
  return { strokes: history.strokes.slice(0, -1), undone: [...history.undone, last] };
}

export function redoStroke(history: StrokeHistory): StrokeHistory {
  const last = history.undone.at(-1);
  if (!last) return history;
  return { strokes: [...history.strokes, last], undone: history.undone.slice(0, -1) };
}

/** Takes one stroke out wherever it is, undone or not (Use my painted mask drops the fitted mask). */
export function removeStroke(history: StrokeHistory, stroke: Stroke): StrokeHistory {
  if (!history.strokes.includes(stroke)) return history;
  return { strokes: history.strokes.filter((s) => s !== stroke), undone: history.undone.filter((s) => s !== stroke) };
}

/** Clear is itself a stroke, so it can be undone; with nothing painted it is not one. */
export function clearStrokes(history: StrokeHistory): StrokeHistory {
  return hasPaint(history) ? addStroke(history, { kind: 'clear' }) : history;
}

/** Whether anything painted survives the erasers and clears. */
export function hasPaint(history: StrokeHistory): boolean {
  return mayHavePaint(history.strokes);
}
