/** The mask editor's undo and redo (features/tool/mask-editor/strokeHistory.ts), as the toolbar's buttons use them. */
import { describe, expect, it } from 'vitest';
import type { Stroke } from '@/features/tool/mask-editor/mask';
import {
  addStroke,
  clearStrokes,
  emptyHistory,
  hasPaint,
  redoStroke,
  removeStroke,
  type StrokeHistory,
  undoStroke,
} from '@/features/tool/mask-editor/strokeHistory';

const paint = (x: number): Stroke => ({ kind: 'paint', radius: 10, points: [[x, x]] });
const erase = (x: number): Stroke => ({ kind: 'erase', radius: 10, points: [[x, x]] });
const painted = (...strokes: Stroke[]) => strokes.reduce(addStroke, emptyHistory);
/** What the toolbar offers: Undo, Redo, and Fit mask or Process finding paint. */
const offers = (h: StrokeHistory) => ({ undo: h.strokes.length > 0, redo: h.undone.length > 0, paint: hasPaint(h) });

describe('the mask editor history', () => {
  it('starts empty: nothing to undo, redo or clear', () => {
    expect(offers(emptyHistory)).toEqual({ undo: false, redo: false, paint: false });
    expect(undoStroke(emptyHistory)).toBe(emptyHistory);
    expect(redoStroke(emptyHistory)).toBe(emptyHistory);
    expect(clearStrokes(emptyHistory)).toBe(emptyHistory);
  });

  it('paint, undo, redo: the stroke goes and comes back', () => {
    const a = paint(1);
    const b = paint(2);
    const both = painted(a, b);
    const undone = undoStroke(both);
    expect(undone.strokes).toEqual([a]);
    expect(offers(undone)).toEqual({ undo: true, redo: true, paint: true });
    expect(undoStroke(undone).strokes).toEqual([]);
    expect(offers(undoStroke(undone))).toEqual({ undo: false, redo: true, paint: false });
    expect(redoStroke(undoStroke(undone)).strokes).toEqual([a]);
    expect(redoStroke(redoStroke(undoStroke(undone)))).toEqual(both);
  });

  it('a new stroke after an undo drops what could have been redone', () => {
    const a = paint(1);
    const c = paint(3);
    const branched = addStroke(undoStroke(painted(a, paint(2))), c);
    expect(branched.strokes).toEqual([a, c]);
    expect(offers(branched).redo).toBe(false);
    expect(redoStroke(branched)).toBe(branched);
  });

  it('clear takes all the paint away and can be undone', () => {
    const a = paint(1);
    const cleared = clearStrokes(painted(a));
    expect(hasPaint(cleared)).toBe(false);
    expect(offers(cleared).undo).toBe(true);
    const back = undoStroke(cleared);
    expect(back.strokes).toEqual([a]);
    expect(hasPaint(back)).toBe(true);
    expect(hasPaint(redoStroke(back))).toBe(false);
  });

  it('clear does nothing when nothing was painted since the last clear (an eraser alone paints nothing)', () => {
    const cleared = clearStrokes(painted(paint(1)));
    expect(clearStrokes(cleared)).toBe(cleared);
    const erased = painted(erase(1));
    expect(clearStrokes(erased)).toBe(erased);
  });

  it('takes the fitted mask out wherever it is in the list, and leaves an undone one for redo', () => {
    const a = paint(1);
    const fitted: Stroke = { kind: 'select', layer: document.createElement('canvas'), x: 0, y: 0 };
    const b = paint(2);
    const h = painted(a, fitted, b);
    expect(removeStroke(h, fitted).strokes).toEqual([a, b]);
    const afterUndo = undoStroke(undoStroke(h));
    expect(removeStroke(afterUndo, a)).toEqual({ strokes: [], undone: [b, fitted] });
    expect(removeStroke(afterUndo, fitted)).toBe(afterUndo);
  });

  it('has no limit: every stroke can be undone back to the empty mask', () => {
    let h = painted(...Array.from({ length: 500 }, (_, i) => paint(i)));
    for (let i = 0; i < 500; i++) h = undoStroke(h);
    expect(h.strokes).toEqual([]);
    expect(h.undone).toHaveLength(500);
  });
});
