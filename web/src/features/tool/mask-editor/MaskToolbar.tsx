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
import type { ReactNode, RefObject } from 'react';
import type { ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/input';
import { Slider } from '@/components/ui/slider';

export type Tool = 'select' | 'brush' | 'eraser' | 'pan';

/** Below 640 px a button's name is for screen readers only, and the button is just its icon. */
const LABEL = 'max-sm:sr-only';
const COMPACT = 'max-sm:px-2';

/** The mask editor's tools (select, brush, eraser, pan), undo, redo, clear, zoom, and the brush size. */
export function MaskToolbar({
  tool,
  setTool,
  selecting,
  disabled,
  canUndo,
  canRedo,
  undo,
  redo,
  clear,
  zoomRef,
  brush,
  setBrush,
  brushRange,
}: {
  tool: Tool;
  setTool(tool: Tool): void;
  selecting: boolean;
  disabled: boolean;
  canUndo: boolean;
  canRedo: boolean;
  undo(): void;
  redo(): void;
  clear(): void;
  zoomRef: RefObject<ReactZoomPanPinchRef | null>;
  /** The brush's diameter in pixels of the photo, and its range for this photo. */
  brush: number;
  setBrush(size: number): void;
  brushRange: { min: number; max: number };
}) {
  return (
    <>
      {/* On a phone the buttons show their icons only (their names stay for screen readers): two rows at most. */}
      <div className="flex flex-wrap items-center gap-1 sm:gap-2" role="toolbar" aria-label="Mask tools">
        <BarButton
          label="Select object"
          active={tool === 'select'}
          onClick={() => setTool('select')}
          disabled={disabled}
        >
          {selecting ? <Loader2 className="animate-spin-late" aria-hidden /> : <MousePointerClick aria-hidden />}
        </BarButton>
        <BarButton label="Brush" active={tool === 'brush'} onClick={() => setTool('brush')} disabled={disabled}>
          <Brush aria-hidden />
        </BarButton>
        <BarButton label="Eraser" active={tool === 'eraser'} onClick={() => setTool('eraser')} disabled={disabled}>
          <Eraser aria-hidden />
        </BarButton>
        <BarButton label="Pan" active={tool === 'pan'} onClick={() => setTool('pan')} disabled={disabled}>
          <Hand aria-hidden />
        </BarButton>
        <span className="mx-1 h-6 w-px bg-border max-sm:hidden" aria-hidden />
        <BarButton label="Undo" onClick={undo} disabled={disabled || !canUndo} title="Undo (Ctrl+Z)">
          <Undo2 aria-hidden />
        </BarButton>
        <BarButton label="Redo" onClick={redo} disabled={disabled || !canRedo} title="Redo (Ctrl+Shift+Z)">
          <Redo2 aria-hidden />
        </BarButton>
        <BarButton label="Clear" onClick={clear} disabled={disabled || !canUndo}>
          <Trash2 aria-hidden />
        </BarButton>
        <span className="mx-1 h-6 w-px bg-border max-sm:hidden" aria-hidden />
        <ZoomButton label="Zoom in" onClick={() => zoomRef.current?.zoomIn()} icon={<ZoomIn aria-hidden />} />
        <ZoomButton label="Zoom out" onClick={() => zoomRef.current?.zoomOut()} icon={<ZoomOut aria-hidden />} />
        <ZoomButton
          label="Reset zoom"
          onClick={() => zoomRef.current?.resetTransform()}
          icon={<RotateCcw aria-hidden />}
        />
      </div>
      <div className="flex items-center gap-3">
        <Label id="brush-size-label" className="shrink-0">
          Brush size
        </Label>
        <Slider
          className="max-w-56"
          min={brushRange.min}
          max={brushRange.max}
          step={1}
          value={[brush]}
          onValueChange={([v]) => v !== undefined && setBrush(v)}
          thumbLabel="Brush size"
          aria-labelledby="brush-size-label"
          disabled={disabled}
        />
        <span className="shrink-0 text-sm tabular-nums text-muted-foreground" title="Pixels of the photo">
          {brush} px
        </span>
      </div>
    </>
  );
}

/**
 * A button of the bar: its icon, and its name beside it on wider screens. A tool's button (`active` given) shows
 * whether it is the tool in use; an edit's (undo, redo, clear) does not.
 */
function BarButton({
  label,
  active,
  onClick,
  disabled,
  title,
  children,
}: {
  label: string;
  active?: boolean;
  onClick(): void;
  disabled: boolean;
  title?: string;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant={active ? 'default' : 'outline'}
      size="sm"
      className={COMPACT}
      aria-pressed={active}
      onClick={onClick}
      disabled={disabled}
      title={title}
    >
      {children} <span className={LABEL}>{label}</span>
    </Button>
  );
}

/** One of the zoom controls: an icon button named by its label. */
function ZoomButton({ label, onClick, icon }: { label: string; onClick: () => void; icon: ReactNode }) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      className="max-sm:h-9 max-sm:w-9"
      onClick={onClick}
      aria-label={label}
    >
      {icon}
    </Button>
  );
}
