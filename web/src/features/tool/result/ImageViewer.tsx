import * as Dialog from '@radix-ui/react-dialog';
import { Minus, Plus, RotateCcw, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { type ReactZoomPanPinchRef, TransformComponent, TransformWrapper } from 'react-zoom-pan-pinch';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { CHECKERBOARD } from './checkerboard';

/**
 * A result at full size over the whole window: wheel or pinch to zoom, drag to pan, and the keyboard (+ and −
 * zoom, 0 fits, the arrows pan, Esc closes). It opens fitted to the window and never enlarged past its own size;
 * the zoom shown is of the photo's own pixels (100% = one image pixel per screen pixel).
 */
export function ImageViewer({
  src,
  alt,
  open,
  onOpenChange,
}: {
  src: string;
  alt: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const zoom = useRef<ReactZoomPanPinchRef>(null);
  const img = useRef<HTMLImageElement>(null);
  const [scale, setScale] = useState(1);
  const [fit, setFit] = useState(1);
  const percent = Math.round(scale * fit * 100);
  const measure = () => {
    const el = img.current;
    if (el?.naturalWidth) setFit(el.clientWidth / el.naturalWidth);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/90" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col bg-neutral-950 text-white focus:outline-none"
          data-testid="image-viewer"
          aria-describedby={undefined}
          // The zoomable area takes the keys: it has the focus from the start.
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            const content = e.currentTarget as HTMLElement;
            // The zoom library mounts its wrapper after this runs: focus it on the next frame.
            requestAnimationFrame(() => content.querySelector<HTMLElement>('[role="region"]')?.focus());
          }}
        >
          <div className="flex flex-wrap items-center justify-between gap-2 bg-black/60 px-4 py-2">
            <Dialog.Title className="truncate text-sm font-medium">{alt}</Dialog.Title>
            <div className="flex items-center gap-1">
              <ViewerButton label="Zoom out" onClick={() => zoom.current?.zoomOut(0.5)}>
                <Minus aria-hidden />
              </ViewerButton>
              <output className="w-14 text-center text-sm tabular-nums" aria-label="Zoom" data-testid="viewer-zoom">
                {percent}%
              </output>
              <ViewerButton label="Zoom in" onClick={() => zoom.current?.zoomIn(0.5)}>
                <Plus aria-hidden />
              </ViewerButton>
              <ViewerButton label="Fit to window" onClick={() => zoom.current?.resetTransform()}>
                <RotateCcw aria-hidden />
              </ViewerButton>
              <Dialog.Close asChild>
                <ViewerButton label="Close">
                  <X aria-hidden />
                </ViewerButton>
              </Dialog.Close>
            </div>
          </div>
          <p className="sr-only" id="viewer-keys">
            Plus and minus zoom, 0 fits the image to the window, the arrow keys move it, Escape closes.
          </p>
          <TransformWrapper
            ref={zoom}
            minScale={0.5}
            maxScale={32}
            centerOnInit
            keyboard={{ disabled: false, panStep: 80, zoomStep: 0.5, animationTime: 120 }}
            doubleClick={{ mode: 'toggle', step: 1 }}
            onTransform={(_, state) => {
              setScale(state.scale);
              measure();
            }}
          >
            <TransformComponent
              wrapperClass="min-h-0 flex-1 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-white"
              wrapperStyle={{ width: '100%', height: '100%' }}
              wrapperProps={{
                role: 'region',
                'aria-label': 'Zoomable image',
                'aria-describedby': 'viewer-keys',
                // @ts-expect-error: a data attribute for the tests, passed through to the element.
                'data-testid': 'viewer-canvas',
              }}
              contentClass="items-center justify-center"
              contentStyle={{ width: '100%', height: '100%' }}
            >
              <img
                ref={img}
                src={src}
                alt={alt}
                onLoad={measure}
                className={cn('max-h-full max-w-full object-contain', CHECKERBOARD)}
                draggable={false}
              />
            </TransformComponent>
          </TransformWrapper>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ViewerButton({ label, ...props }: { label: string } & React.ComponentProps<typeof Button>) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      className="text-white hover:bg-white/20 hover:text-white focus-visible:ring-white"
      {...props}
    />
  );
}
