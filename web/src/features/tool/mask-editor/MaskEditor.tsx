import type { OperationId } from '@ai-editor/core';
import { Loader2 } from 'lucide-react';
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { type ReactZoomPanPinchRef, TransformComponent, TransformWrapper } from 'react-zoom-pan-pinch';
import { cn } from '@/lib/utils';
import type { ClickMode, SelectionPrompt } from '../selectObject';
import { useObjectUrl } from '../workspace/UploadArea';
import { MaskFitBar } from './MaskFitBar';
import { MaskToolbar, type Tool } from './MaskToolbar';
import { exportMask, maskSize, selectionStroke } from './mask';
import { SelectionBar } from './SelectionBar';
import { useKeyboardCrosshair } from './useKeyboardCrosshair';
import { useMaskFit } from './useMaskFit';
import { usePointerGestures } from './usePointerGestures';
import { useSelectionRequest } from './useSelectionRequest';
import { useStrokeHistory, useUndoKeys } from './useStrokeHistory';

export interface MaskEditorHandle {
  /** The painted mask as a PNG (white = the area to work on), or null when nothing is painted. */
  toMask(): Promise<Blob | null>;
}

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
  disabled: outsideDisabled,
  mayUse = false,
  onPaintChange,
  onBusyChange,
  initialMask,
  ref,
}: {
  file: File;
  /** A mask to start from (the one a job ran with, white = painted, any size of the photo's proportions). */
  initialMask?: Blob | null;
  /** The tool the mask is for: the selection follows its access rules. */
  operation?: OperationId;
  disabled: boolean;
  /**
   * The visitor may use the tool: the photo is prepared for Select object as soon as it opens, so that the first
   * click after choosing Select object finds its preparation done. Otherwise it is prepared when Select object is
   * chosen.
   */
  mayUse?: boolean;
  onPaintChange?(hasPaint: boolean): void;
  /** The mask is being fitted to the object: what it will be is not known yet (Process waits). */
  onBusyChange?(busy: boolean): void;
  ref?: Ref<MaskEditorHandle>;
}) {
  const url = useObjectUrl(file);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const zoomRef = useRef<ReactZoomPanPinchRef>(null);
  const [tool, setTool] = useState<Tool>('brush');
  // The brush is measured in pixels of the photo: it covers the same part of it at any zoom and on any screen.
  const [photo, setPhoto] = useState({ width: 1, height: 1, shownWidth: 1 });
  const [brush, setBrush] = useState(30);
  const brushRange = brushRangeFor(photo.width, photo.height);
  const history = useStrokeHistory(canvasRef, onPaintChange);
  const fit = useMaskFit({ file, operation, canvasRef, add: history.add, remove: history.remove });
  // The strokes stay as they are while a fit runs: the fitted mask is drawn over them when it arrives.
  const disabled = outsideDisabled || fit.fitting;
  useEffect(() => onBusyChange?.(fit.fitting), [fit.fitting]);
  useEffect(() => () => onBusyChange?.(false), []);
  const selection = useSelectionRequest({
    file,
    operation,
    prepare: (mayUse || tool === 'select') && !outsideDisabled,
    canvasRef,
    imgRef,
    add: history.add,
    remove: history.remove,
    has: history.has,
  });
  const { selecting, status, error } = selection;
  // What a plain click does once an object is selected (Shift- and Alt-click choose for one click).
  const [clickMode, setClickMode] = useState<ClickMode>('new');
  useEffect(() => setClickMode('new'), [file]);
  const select = (prompt: SelectionPrompt) => selection.select(prompt, clickMode);
  const keyboard = useKeyboardCrosshair({ tool, disabled, select });
  const { cursor, dragBox, handlers } = usePointerGestures({
    tool,
    brush,
    photoWidth: photo.width,
    disabled,
    selecting,
    ctx: history.ctx,
    redrawAll: history.redrawAll,
    add: history.add,
    select,
  });
  const { crosshair } = keyboard;
  useUndoKeys(disabled, history.undo, history.redo);

  useImperativeHandle(ref, () => ({
    toMask: () => (canvasRef.current ? exportMask(canvasRef.current) : Promise.resolve(null)),
  }));

  // A new photo starts a new mask (or the one given with it, drawn once the photo is in place).
  const pendingMask = useRef<Blob | null>(null);
  useEffect(() => {
    history.reset();
    pendingMask.current = initialMask ?? null;
  }, [file]);

  // How wide the photo is on the screen (before zoom), to draw the brush's outline at its size.
  useEffect(() => {
    const img = imgRef.current;
    if (!img) return;
    const observer = new ResizeObserver(() => setPhoto((p) => ({ ...p, shownWidth: img.offsetWidth || 1 })));
    observer.observe(img);
    return () => observer.disconnect();
  }, [url]);

  const onImageLoad = (img: HTMLImageElement) => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const size = maskSize(img.naturalWidth, img.naturalHeight);
    canvas.width = size.width;
    canvas.height = size.height;
    setPhoto({ width: img.naturalWidth, height: img.naturalHeight, shownWidth: img.offsetWidth || 1 });
    setBrush(brushRangeFor(img.naturalWidth, img.naturalHeight).start);
    history.redrawAll();
    const mask = pendingMask.current;
    pendingMask.current = null;
    if (mask) {
      selectionStroke(mask, { x: 0, y: 0, ...size }).then(
        (stroke) => canvasRef.current === canvas && history.add(stroke, true),
        () => undefined, // an unreadable mask leaves the canvas empty, to paint again
      );
    }
  };

  return (
    <div className="space-y-3" data-testid="mask-editor">
      <MaskToolbar
        tool={tool}
        setTool={setTool}
        selecting={selecting}
        disabled={disabled}
        canUndo={history.canUndo}
        canRedo={history.canRedo}
        undo={history.undo}
        redo={history.redo}
        clear={history.clear}
        zoomRef={zoomRef}
        brush={brush}
        setBrush={setBrush}
        brushRange={brushRange}
      />
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
            <div className="relative" aria-busy={selecting || fit.fitting}>
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
                onKeyDown={keyboard.onKeyDown}
                onFocus={keyboard.onFocus}
                onBlur={keyboard.onBlur}
                {...handlers}
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
                  <Loader2 className="size-4 animate-spin-late" aria-hidden /> Selecting object…
                </span>
              )}
              {fit.fitting && (
                <span
                  data-testid="fitting"
                  className="pointer-events-none absolute top-3 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-full bg-background/90 px-3 py-1.5 text-sm font-medium shadow"
                >
                  <Loader2 className="size-4 animate-spin" aria-hidden /> Fitting the mask…
                </span>
              )}
              {cursor && (tool === 'brush' || tool === 'eraser') && !disabled && (
                <span
                  aria-hidden
                  className="pointer-events-none absolute rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
                  style={{
                    left: `${cursor.x}%`,
                    top: `${cursor.y}%`,
                    width: (brush * photo.shownWidth) / photo.width,
                    height: (brush * photo.shownWidth) / photo.width,
                    transform: 'translate(-50%, -50%)',
                  }}
                />
              )}
            </div>
          </TransformComponent>
        </TransformWrapper>
      </div>
      {tool === 'select' && selection.refining && (
        <SelectionBar
          canSmaller={selection.canSmaller}
          canLarger={selection.canLarger}
          disabled={disabled || selecting}
          mode={clickMode}
          setMode={setClickMode}
          step={selection.step}
        />
      )}
      <MaskFitBar
        fitted={history.has(fit.fit)}
        fitting={fit.fitting}
        canFit={history.hasPaint}
        disabled={disabled || selecting}
        onFit={fit.start}
        onBack={fit.back}
      />
      <p className="text-sm text-muted-foreground">
        {tool === 'select'
          ? 'Click an object, or drag a box around it, to select it. Shift-click adds to the selection, Alt-click takes away; then refine it with the brush or the eraser.'
          : 'Paint over what you want removed.'}{' '}
        Scroll or pinch to zoom; use the hand (or the middle mouse button) to move around.
      </p>
      {(error || fit.error) && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="mask-error">
          {fit.error ?? error}
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite" data-testid="mask-status">
        {fit.status || status}
      </p>
    </div>
  );
}

/**
 * The brush sizes offered for a photo, in its pixels: from fine detail to a fifth of its long side, starting at a
 * twentieth of it (about 30 px on a phone photo shown at 600 px).
 */
export function brushRangeFor(width: number, height: number): { min: number; max: number; start: number } {
  const long = Math.max(width, height);
  const min = Math.max(2, Math.round(long / 200));
  const max = Math.max(min + 10, Math.round(long / 5));
  return { min, max, start: Math.min(max, Math.max(min, Math.round(long / 20))) };
}
