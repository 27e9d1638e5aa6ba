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
import type { RefObject } from 'react';
import type { ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/input';
import { Slider } from '@/components/ui/slider';

export type Tool = 'select' | 'brush' | 'eraser' | 'pan';

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
  brush: number;
  setBrush(size: number): void;
}) {
  return (
    <>
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
    </>
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
