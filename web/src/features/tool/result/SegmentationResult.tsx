import { type ImageJob, type Operation, OUTPUT_PARAMS } from '@ai-editor/core';
import { Check, Loader2, MousePointerClick, Undo2 } from 'lucide-react';
import { type ComponentProps, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useKeyboardCrosshair } from '../mask-editor/useKeyboardCrosshair';
import { ResultCard, resultUrls } from './ResultCard';
import { useSelectionEdit } from './useSelectionEdit';

/**
 * Segmentation's result card with "Edit the selection": the overlay on a canvas the visitor clicks to add an
 * object to the subject or take one out (useSelectionEdit), Undo, and the result view and downloads giving the
 * edited overlay and mask afterwards.
 */
export function SegmentationResult({
  op,
  job,
  beforeUrl,
  canDownload,
  actions,
}: {
  op: Operation;
  job: ImageJob;
  beforeUrl?: string;
  canDownload: boolean;
  actions?: ComponentProps<typeof ResultCard>['actions'];
}) {
  const [editing, setEditing] = useState(false);
  // The job's output quality, else the catalogue's default (OUTPUT_PARAMS[1] is quality).
  const { quality = OUTPUT_PARAMS[1].default } = job.parameters as { quality?: number };
  const edit = useSelectionEdit({ operation: op.id, urls: resultUrls(job), beforeUrl, quality });
  const canEdit = Boolean(beforeUrl) && resultUrls(job).length >= 2;

  const toggle = () => {
    if (!editing) edit.begin();
    setEditing(!editing);
  };

  return (
    <ResultCard
      op={op}
      job={job}
      beforeUrl={beforeUrl}
      canDownload={canDownload}
      edited={edit.edited}
      editor={editing ? <SelectionCanvas edit={edit} /> : undefined}
      actions={(index) => (
        <>
          {canEdit && (
            <Button type="button" variant="outline" onClick={toggle}>
              {editing ? <Check aria-hidden /> : <MousePointerClick aria-hidden />}
              {editing ? 'Done editing' : 'Edit the selection'}
            </Button>
          )}
          {actions?.(index)}
        </>
      )}
    />
  );
}

/** The overlay, redrawn after each click; arrow keys move a crosshair and Enter clicks under it. */
function SelectionCanvas({ edit }: { edit: ReturnType<typeof useSelectionEdit> }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { overlay, size } = edit;
  const keyboard = useKeyboardCrosshair({
    tool: 'select',
    disabled: edit.busy || !edit.ready,
    select: async (p) => {
      if ('x' in p) await edit.click(p.x, p.y);
    },
  });

  useEffect(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (ctx && overlay && size) ctx.putImageData(new ImageData(overlay, size.width, size.height), 0, 0);
  }, [overlay, size]);

  const onClick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const canvas = e.currentTarget;
    const r = canvas.getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * canvas.width;
    const y = ((e.clientY - r.top) / r.height) * canvas.height;
    void edit.click(Math.min(canvas.width - 1, Math.max(0, x)), Math.min(canvas.height - 1, Math.max(0, y)));
  };

  return (
    <div className="space-y-2">
      <div className="flex justify-center overflow-hidden rounded-md border">
        <div className="relative" aria-busy={edit.busy || edit.loading}>
          {size ? (
            <canvas
              ref={canvasRef}
              width={size.width}
              height={size.height}
              tabIndex={edit.ready ? 0 : -1}
              aria-label="The selection: click an object to add it, or click the selection to take that object out. With the keyboard, arrow keys move the crosshair and Enter clicks"
              data-testid="selection-canvas"
              className="block max-h-[70vh] max-w-full cursor-crosshair focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              onClick={onClick}
              onKeyDown={keyboard.onKeyDown}
              onFocus={keyboard.onFocus}
              onBlur={keyboard.onBlur}
            />
          ) : (
            <div className="flex h-48 w-72 items-center justify-center">
              {edit.loading && <Loader2 className="size-6 animate-spin" aria-hidden />}
            </div>
          )}
          {keyboard.crosshair && (
            <span
              aria-hidden
              className="pointer-events-none absolute h-6 w-6 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
              style={{ left: `${keyboard.crosshair.x * 100}%`, top: `${keyboard.crosshair.y * 100}%` }}
            />
          )}
          {edit.busy && (
            <span
              data-testid="selection-busy"
              className="pointer-events-none absolute top-3 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-full bg-background/90 px-3 py-1.5 text-sm font-medium shadow"
            >
              <Loader2 className="size-4 animate-spin-late" aria-hidden /> Selecting object…
            </span>
          )}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={edit.undo} disabled={!edit.canUndo}>
          <Undo2 aria-hidden /> Undo
        </Button>
        <p
          role="status"
          data-testid="selection-status"
          className={edit.error ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
        >
          {edit.status}
        </p>
      </div>
    </div>
  );
}
