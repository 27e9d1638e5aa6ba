import type { OperationId } from '@ai-editor/core';
import {
  Brush,
  Eraser,
  Hand,
  Loader2,
  MousePointerClick,
  Redo2,
  RotateCcw,
  Trash2,
  Undo2,
  ZoomIn,
  ZoomOut,
} from 'lucide-react';
import { type Ref, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { type ReactZoomPanPinchRef, TransformComponent, TransformWrapper } from 'react-zoom-pan-pinch';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/input';
import { Slider } from '@/components/ui/slider';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { ToolError } from '../jobs';
import { useObjectUrl } from '../workspace/UploadArea';
import { drawStroke, exportMask, maskSize, mayHavePaint, redraw, type Stroke, selectionLayer } from './mask';
import { requestSelection, type SelectionPrompt } from './selectObject';

export interface MaskEditorHandle {
  /** The painted mask as a PNG (white = the area to work on), or null when nothing is painted. */
  toMask(): Promise<Blob | null>;
}

type Tool = 'select' | 'brush' | 'eraser' | 'pan';

/** A pointer that moves less than this many screen pixels between press and release clicked; more drew a box. */
const DRAG_PX = 6;
/** Arrow keys move the keyboard crosshair by this share of the photo (Shift: five times as far). */
const KEY_STEP = 0.02;

/**
 * Paint the area to remove over the photo (IOPaint-style): select object (click it or drag a box around it; the
 * server returns its mask), brush, eraser, undo/redo (Ctrl+Z, Ctrl+Shift+Z), clear, wheel or pinch zoom and pan.
 * Painting uses pointer events, so mouse, pen and one finger all draw; a second finger turns the gesture into a
 * pinch and drops the stroke it began. With the keyboard, the photo takes focus in select mode: arrow keys move a
 * crosshair and Enter selects the object under it.
 */
export function MaskEditor({
  file,
  operation = 'object-removal',
  disabled,
  onPaintChange,
  ref,
}: {
  file: File;
  /** The tool the mask is for: the selection follows its access rules. */
  operation?: OperationId;
  disabled: boolean;
  onPaintChange?(hasPaint: boolean): void;
  ref?: Ref<MaskEditorHandle>;
}) {
  const url = useObjectUrl(file);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const zoomRef = useRef<ReactZoomPanPinchRef>(null);
  const strokes = useRef<Stroke[]>([]);
  const redoStack = useRef<Stroke[]>([]);
  const current = useRef<Stroke | null>(null);
  const pointers = useRef(new Set<number>());
  const [tool, setTool] = useState<Tool>('brush');
  const [brush, setBrush] = useState(30);
  const [, setVersion] = useState(0);
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);
  // Select mode: where the press began (canvas pixels), the box being dragged (% of the canvas), the request.
  const pressAt = useRef<{ x: number; y: number; clientX: number; clientY: number } | null>(null);
  const [dragBox, setDragBox] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  const [selecting, setSelecting] = useState(false);
  const selectAbort = useRef<AbortController | null>(null);
  const [crosshair, setCrosshair] = useState<{ x: number; y: number } | null>(null);
  const [status, setStatus] = useState('');

  const ctx = () => canvasRef.current?.getContext('2d') ?? null;
  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    onPaintChange?.(mayHavePaint(strokes.current));
  }, [onPaintChange]);

  useImperativeHandle(ref, () => ({
    toMask: () => (canvasRef.current ? exportMask(canvasRef.current) : Promise.resolve(null)),
  }));

  // A new photo starts a new mask (and drops a selection still being computed for the old one).
  useEffect(() => {
    strokes.current = [];
    redoStack.current = [];
    changed();
    return () => selectAbort.current?.abort();
  }, [file]);

  const onImageLoad = (img: HTMLImageElement) => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const size = maskSize(img.naturalWidth, img.naturalHeight);
    canvas.width = size.width;
    canvas.height = size.height;
    const c = ctx();
    if (c) redraw(c, strokes.current);
  };

  const undo = useCallback(() => {
    const s = strokes.current.pop();
    if (!s) return;
    redoStack.current.push(s);
    const c = ctx();
    if (c) redraw(c, strokes.current);
    changed();
  }, [changed]);

  const redo = useCallback(() => {
    const s = redoStack.current.pop();
    if (!s) return;
    strokes.current.push(s);
    const c = ctx();
    if (c) drawStroke(c, s);
    changed();
  }, [changed]);

  /** Asks the server for the object at a point or in a box (canvas pixels) and adds its mask as one stroke. */
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
    setStatus('Selecting the object…');
    try {
      const png = await requestSelection(file, operation, scaled, abort.signal);
      const layer = await selectionLayer(png, canvas.width, canvas.height);
      if (abort.signal.aborted) return;
      const stroke: Stroke = { kind: 'select', layer };
      strokes.current.push(stroke);
      redoStack.current = [];
      const c = ctx();
      if (c) drawStroke(c, stroke);
      changed();
      setStatus('Object selected. Refine it with the brush or the eraser; Undo removes it.');
    } catch (err) {
      if (abort.signal.aborted) return;
      const e = err instanceof ToolError ? err : ToolError.of('PROCESS_FAILED');
      setStatus(e.message);
      toast({ variant: 'destructive', title: e.title, description: e.message });
    } finally {
      if (selectAbort.current === abort) {
        selectAbort.current = null;
        setSelecting(false);
      }
    }
  };

  const onCanvasKey = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    if (tool !== 'select' || disabled) return;
    const at = crosshair ?? { x: 0.5, y: 0.5 };
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move) {
      setCrosshair({ x: Math.min(1, Math.max(0, at.x + move[0])), y: Math.min(1, Math.max(0, at.y + move[1])) });
    } else if (e.key === 'Enter' || e.key === ' ') {
      const canvas = e.currentTarget;
      void select({ x: at.x * (canvas.width - 1), y: at.y * (canvas.height - 1) });
    } else return;
    e.preventDefault();
  };

  const clear = () => {
    if (!mayHavePaint(strokes.current)) return;
    const s: Stroke = { kind: 'clear' };
    strokes.current.push(s);
    redoStack.current = [];
    const c = ctx();
    if (c) drawStroke(c, s);
    changed();
  };

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

  /** Pointer position in canvas pixels (the bounding box already includes the zoom transform). */
  const toCanvas = (e: React.PointerEvent<HTMLCanvasElement>): [number, number] => {
    const canvas = e.currentTarget;
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height];
  };

  const radius = (canvas: HTMLCanvasElement) => ((brush / 2) * canvas.width) / Math.max(1, canvas.offsetWidth);

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
      const [x, y] = toCanvas(e);
      pressAt.current = { x, y, clientX: e.clientX, clientY: e.clientY };
      return;
    }
    if (pointers.current.size > 1) {
      // A second finger: this is a pinch, not a stroke.
      if (current.current) {
        current.current = null;
        const c = ctx();
        if (c) redraw(c, strokes.current);
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
      const [x, y] = toCanvas(e);
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
      const [x, y] = toCanvas(e);
      const dragged = Math.hypot(e.clientX - press.clientX, e.clientY - press.clientY) >= DRAG_PX;
      void select(dragged ? { x0: press.x, y0: press.y, x1: x, y1: y } : { x: press.x, y: press.y });
      return;
    }
    const stroke = current.current;
    if (!stroke) return;
    current.current = null;
    strokes.current.push(stroke);
    redoStack.current = [];
    changed();
  };

  const canUndo = strokes.current.length > 0;
  const canRedo = redoStack.current.length > 0;

  return (
    <div className="space-y-3" data-testid="mask-editor">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Mask tools">
        <ToolButton
          label="Select object"
          active={tool === 'select'}
          onClick={() => setTool('select')}
          disabled={disabled}
        >
          {selecting ? <Loader2 className="animate-spin" aria-hidden /> : <MousePointerClick aria-hidden />}
        </ToolButton>
        <ToolButton label="Brush" active={tool === 'brush'} onClick={() => setTool('brush')} disabled={disabled}>
          <Brush aria-hidden />
        </ToolButton>
        <ToolButton label="Eraser" active={tool === 'eraser'} onClick={() => setTool('eraser')} disabled={disabled}>
          <Eraser aria-hidden />
        </ToolButton>
        <ToolButton label="Pan" active={tool === 'pan'} onClick={() => setTool('pan')} disabled={disabled}>
          <Hand aria-hidden />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={undo}
          disabled={disabled || !canUndo}
          title="Undo (Ctrl+Z)"
        >
          <Undo2 aria-hidden /> Undo
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={redo}
          disabled={disabled || !canRedo}
          title="Redo (Ctrl+Shift+Z)"
        >
          <Redo2 aria-hidden /> Redo
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={clear} disabled={disabled || !canUndo}>
          <Trash2 aria-hidden /> Clear
        </Button>
        <span className="mx-1 h-6 w-px bg-border" aria-hidden />
        <Button
          type="button"
          variant="ghost"
          size="icon"
          onClick={() => zoomRef.current?.zoomIn()}
          aria-label="Zoom in"
        >
          <ZoomIn aria-hidden />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          onClick={() => zoomRef.current?.zoomOut()}
          aria-label="Zoom out"
        >
          <ZoomOut aria-hidden />
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          onClick={() => zoomRef.current?.resetTransform()}
          aria-label="Reset zoom"
        >
          <RotateCcw aria-hidden />
        </Button>
      </div>
      <div className="flex items-center gap-3">
        <Label id="brush-size-label" className="shrink-0">
          Brush size
        </Label>
        <Slider
          className="max-w-56"
          min={5}
          max={120}
          step={1}
          value={[brush]}
          onValueChange={([v]) => v !== undefined && setBrush(v)}
          thumbLabel="Brush size"
          aria-labelledby="brush-size-label"
          disabled={disabled}
        />
        <span className="w-10 text-sm tabular-nums text-muted-foreground">{brush}px</span>
      </div>
      <div className="overflow-hidden rounded-lg border bg-muted/40">
        <TransformWrapper
          ref={zoomRef}
          minScale={1}
          maxScale={8}
          doubleClick={{ disabled: true }}
          panning={{ disabled: tool !== 'pan', allowMiddleClickPan: true, velocityDisabled: true }}
          pinch={{ allowPanning: true }}
        >
          <TransformComponent wrapperClass="!w-full" contentClass="!w-full justify-center">
            <div className="relative" aria-busy={selecting}>
              {url && (
                <img
                  ref={imgRef}
                  src={url}
                  alt="Your photo: paint over the area to remove"
                  className="block max-h-[60vh] max-w-full select-none"
                  draggable={false}
                  onLoad={(e) => onImageLoad(e.currentTarget)}
                />
              )}
              <canvas
                ref={canvasRef}
                aria-label={
                  tool === 'select'
                    ? 'Mask: click an object or drag a box around it to select it. With the keyboard, arrow keys move the crosshair and Enter selects'
                    : 'Mask: paint over the area to remove'
                }
                tabIndex={tool === 'select' && !disabled ? 0 : -1}
                data-testid="mask-canvas"
                className={cn(
                  'absolute inset-0 h-full w-full touch-none opacity-55 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  tool === 'pan' ? 'cursor-grab' : tool === 'select' ? 'cursor-crosshair' : 'cursor-none',
                  selecting && 'cursor-wait',
                )}
                onKeyDown={onCanvasKey}
                onFocus={(e) => {
                  // The crosshair is for keyboard users; a mouse or touch press also focuses the canvas.
                  if (tool === 'select' && e.currentTarget.matches(':focus-visible')) {
                    setCrosshair((c) => c ?? { x: 0.5, y: 0.5 });
                  }
                }}
                onBlur={() => setCrosshair(null)}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={endStroke}
                onPointerCancel={endStroke}
                onPointerLeave={() => setCursor(null)}
              />
              {dragBox && (
                <span
                  aria-hidden
                  data-testid="selection-box"
                  className="pointer-events-none absolute border-2 border-dashed border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
                  style={{
                    left: `${dragBox.left}%`,
                    top: `${dragBox.top}%`,
                    width: `${dragBox.width}%`,
                    height: `${dragBox.height}%`,
                  }}
                />
              )}
              {crosshair && tool === 'select' && (
                <span
                  aria-hidden
                  className="pointer-events-none absolute h-6 w-6 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)] before:absolute before:top-1/2 before:left-1/2 before:h-1 before:w-1 before:-translate-x-1/2 before:-translate-y-1/2 before:rounded-full before:bg-white"
                  style={{ left: `${crosshair.x * 100}%`, top: `${crosshair.y * 100}%` }}
                />
              )}
              {selecting && (
                <span
                  data-testid="selecting"
                  className="pointer-events-none absolute top-3 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-full bg-background/90 px-3 py-1.5 text-sm font-medium shadow"
                >
                  <Loader2 className="size-4 animate-spin" aria-hidden /> Selecting object…
                </span>
              )}
              {cursor && (tool === 'brush' || tool === 'eraser') && !disabled && (
                <span
                  aria-hidden
                  className="pointer-events-none absolute rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
                  style={{
                    left: `${cursor.x}%`,
                    top: `${cursor.y}%`,
                    width: brush,
                    height: brush,
                    transform: 'translate(-50%, -50%)',
                  }}
                />
              )}
            </div>
          </TransformComponent>
        </TransformWrapper>
      </div>
      <p className="text-sm text-muted-foreground">
        {tool === 'select'
          ? 'Click an object, or drag a box around it, to select it; then refine the selection with the brush or the eraser.'
          : 'Paint over what you want removed.'}{' '}
        Scroll or pinch to zoom; use the hand (or the middle mouse button) to move around.
      </p>
      <p className="sr-only" role="status" aria-live="polite" data-testid="mask-status">
        {status}
      </p>
    </div>
  );
}

function ToolButton({
  label,
  active,
  onClick,
  disabled,
  children,
}: {
  label: string;
  active: boolean;
  onClick(): void;
  disabled: boolean;
  children: React.ReactNode;
}) {
  return (
    <Button
      type="button"
      variant={active ? 'default' : 'outline'}
      size="sm"
      aria-pressed={active}
      onClick={onClick}
      disabled={disabled}
    >
      {children} {label}
    </Button>
  );
}
