import { Brush, Eraser, Hand, Redo2, RotateCcw, Trash2, Undo2, ZoomIn, ZoomOut } from 'lucide-react';
import { type Ref, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { type ReactZoomPanPinchRef, TransformComponent, TransformWrapper } from 'react-zoom-pan-pinch';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/input';
import { Slider } from '@/components/ui/slider';
import { cn } from '@/lib/utils';
import { drawStroke, exportMask, maskSize, mayHavePaint, redraw, type Stroke } from './mask';
import { useObjectUrl } from './UploadArea';

export interface MaskEditorHandle {
  /** The painted mask as a PNG (white = the area to work on), or null when nothing is painted. */
  toMask(): Promise<Blob | null>;
}

type Tool = 'brush' | 'eraser' | 'pan';

/**
 * Paint the area to remove over the photo (IOPaint-style): brush, eraser, undo/redo (Ctrl+Z, Ctrl+Shift+Z),
 * clear, wheel or pinch zoom and pan. Painting uses pointer events, so mouse, pen and one finger all draw; a second
 * finger turns the gesture into a pinch and drops the stroke it began.
 */
export function MaskEditor({
  file,
  disabled,
  onPaintChange,
  ref,
}: {
  file: File;
  disabled: boolean;
  onPaintChange?(hasPaint: boolean): void;
  ref?: Ref<MaskEditorHandle>;
}) {
  const url = useObjectUrl(file);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const zoomRef = useRef<ReactZoomPanPinchRef>(null);
  const strokes = useRef<Stroke[]>([]);
  const redoStack = useRef<Stroke[]>([]);
  const current = useRef<Stroke | null>(null);
  const pointers = useRef(new Set<number>());
  const [tool, setTool] = useState<Tool>('brush');
  const [brush, setBrush] = useState(30);
  const [, setVersion] = useState(0);
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);

  const ctx = () => canvasRef.current?.getContext('2d') ?? null;
  const changed = useCallback(() => {
    setVersion((v) => v + 1);
    onPaintChange?.(mayHavePaint(strokes.current));
  }, [onPaintChange]);

  useImperativeHandle(ref, () => ({
    toMask: () => (canvasRef.current ? exportMask(canvasRef.current) : Promise.resolve(null)),
  }));

  // A new photo starts a new mask.
  useEffect(() => {
    strokes.current = [];
    redoStack.current = [];
    changed();
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
    if (disabled || tool === 'pan' || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pointers.current.add(e.pointerId);
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
    const stroke = current.current;
    if (!stroke || stroke.kind === 'clear') return;
    stroke.points.push(toCanvas(e));
    const c = ctx();
    if (c) drawStroke(c, stroke, stroke.points.length - 2);
  };

  const endStroke = (e: React.PointerEvent<HTMLCanvasElement>) => {
    pointers.current.delete(e.pointerId);
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
            <div className="relative">
              {url && (
                <img
                  src={url}
                  alt="Your photo: paint over the area to remove"
                  className="block max-h-[60vh] max-w-full select-none"
                  draggable={false}
                  onLoad={(e) => onImageLoad(e.currentTarget)}
                />
              )}
              <canvas
                ref={canvasRef}
                aria-label="Mask: paint over the area to remove"
                data-testid="mask-canvas"
                className={cn(
                  'absolute inset-0 h-full w-full touch-none opacity-55',
                  tool === 'pan' ? 'cursor-grab' : 'cursor-none',
                )}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={endStroke}
                onPointerCancel={endStroke}
                onPointerLeave={() => setCursor(null)}
              />
              {cursor && tool !== 'pan' && !disabled && (
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
        Paint over what you want removed. Scroll or pinch to zoom; use the hand (or the middle mouse button) to move
        around.
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
