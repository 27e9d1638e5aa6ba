import { useRef, useState } from 'react';
import type { SelectionPrompt } from '../selectObject';
import type { Tool } from './MaskToolbar';
import { drawStroke, type Stroke } from './mask';

/** A pointer that moves less than this many screen pixels between press and release clicked; more drew a box. */
const DRAG_PX = 6;

/**
 * Pointer gestures on the mask canvas: mouse, pen and one finger draw (brush, eraser) or, in select mode, click an
 * object or drag a box around it; a second finger turns the gesture into a pinch and drops the stroke it began.
 * Also the brush cursor's place and the box being dragged, both in % of the canvas.
 */
export function usePointerGestures({
  tool,
  brush,
  photoWidth,
  disabled,
  selecting,
  ctx,
  redrawAll,
  add,
  select,
}: {
  tool: Tool;
  /** Brush diameter in pixels of the photo (so it covers the same part of the photo at any zoom or screen). */
  brush: number;
  /** The photo's own width (the canvas may be smaller, see maskSize). */
  photoWidth: number;
  disabled: boolean;
  selecting: boolean;
  ctx(): CanvasRenderingContext2D | null;
  redrawAll(): void;
  add(stroke: Stroke, draw: boolean): void;
  select(prompt: SelectionPrompt): Promise<void>;
}) {
  const current = useRef<Stroke | null>(null);
  const pointers = useRef(new Set<number>());
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);
  // Select mode: where the press began (canvas pixels) and the box being dragged (% of the canvas).
  const pressAt = useRef<{ x: number; y: number; clientX: number; clientY: number } | null>(null);
  const [dragBox, setDragBox] = useState<{ left: number; top: number; width: number; height: number } | null>(null);

  /** Pointer position in canvas pixels (the bounding box already includes the zoom transform). */
  const toCanvas = (e: React.PointerEvent<HTMLCanvasElement>): [number, number] => {
    const canvas = e.currentTarget;
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height];
  };
  /** The same, kept on the photo: a box dragged past its edge (an object in a corner) ends at the edge. */
  const onCanvas = (e: React.PointerEvent<HTMLCanvasElement>): [number, number] => {
    const [x, y] = toCanvas(e);
    const { width, height } = e.currentTarget;
    return [Math.min(width, Math.max(0, x)), Math.min(height, Math.max(0, y))];
  };

  const radius = (canvas: HTMLCanvasElement) => ((brush / 2) * canvas.width) / Math.max(1, photoWidth);

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (disabled || selecting || tool === 'pan' || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pointers.current.add(e.pointerId);
    if (tool === 'select') {
      // A second finger is a pinch, not a box.
      if (pointers.current.size > 1) {
        pressAt.current = null;
        setDragBox(null);
        return;
      }
      e.currentTarget.setPointerCapture(e.pointerId);
      const [x, y] = onCanvas(e);
      pressAt.current = { x, y, clientX: e.clientX, clientY: e.clientY };
      return;
    }
    if (pointers.current.size > 1) {
      // A second finger: this is a pinch, not a stroke.
      if (current.current) {
        current.current = null;
        redrawAll();
      }
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    const stroke: Stroke = {
      kind: tool === 'eraser' ? 'erase' : 'paint',
      radius: radius(e.currentTarget),
      points: [toCanvas(e)],
    };
    current.current = stroke;
    const c = ctx();
    if (c) drawStroke(c, stroke);
  };

  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const canvas = e.currentTarget;
    const r = canvas.getBoundingClientRect();
    setCursor({ x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 });
    const press = pressAt.current;
    if (tool === 'select' && press) {
      if (Math.hypot(e.clientX - press.clientX, e.clientY - press.clientY) < DRAG_PX) return;
      const [x, y] = onCanvas(e);
      const pct = (v: number, size: number) => (v / size) * 100;
      setDragBox({
        left: pct(Math.min(press.x, x), canvas.width),
        top: pct(Math.min(press.y, y), canvas.height),
        width: pct(Math.abs(x - press.x), canvas.width),
        height: pct(Math.abs(y - press.y), canvas.height),
      });
      return;
    }
    const stroke = current.current;
    if (!stroke || stroke.kind === 'clear' || stroke.kind === 'select') return;
    stroke.points.push(toCanvas(e));
    const c = ctx();
    if (c) drawStroke(c, stroke, stroke.points.length - 2);
  };

  const endStroke = (e: React.PointerEvent<HTMLCanvasElement>) => {
    pointers.current.delete(e.pointerId);
    const press = pressAt.current;
    if (press) {
      pressAt.current = null;
      setDragBox(null);
      if (e.type !== 'pointerup') return;
      const [x, y] = onCanvas(e);
      const dragged = Math.hypot(e.clientX - press.clientX, e.clientY - press.clientY) >= DRAG_PX;
      // Shift-click adds to the selection, Alt-click takes away from it (as in other editors).
      const mode = e.shiftKey ? 'add' : e.altKey ? 'remove' : undefined;
      void select(dragged ? { x0: press.x, y0: press.y, x1: x, y1: y } : { x: press.x, y: press.y, mode });
      return;
    }
    const stroke = current.current;
    if (!stroke) return;
    current.current = null;
    add(stroke, false);
  };

  return {
    cursor,
    dragBox,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: endStroke,
      onPointerCancel: endStroke,
      onPointerLeave: () => setCursor(null),
    },
  };
}
