import { ImageDown } from 'lucide-react';
import { createPortal } from 'react-dom';
import { usePageDrop } from './usePageDrop';
import { usePaste } from './usePaste';

/**
 * Makes the whole page take photos: dropped anywhere (a page-wide overlay shows while files are dragged over it)
 * or pasted from the clipboard. The page decides what to do with them (one photo, a batch, or a refusal).
 */
export function PageFileTarget({
  onFiles,
  disabled,
  label = 'Drop your photo anywhere to use it',
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  label?: string;
}) {
  const dragging = usePageDrop(onFiles, !disabled);
  usePaste(onFiles, !disabled);
  if (!dragging) return null;
  // On the document's body: inside the page, an animated (transformed) ancestor would make `fixed` mean that
  // ancestor's box instead of the window, and leave part of the page uncovered.
  return createPortal(
    // Pointer events pass through, so a drop on the page's own drop zone still reaches it.
    <div
      className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-background/80 p-6 backdrop-blur-sm"
      data-testid="page-drop-overlay"
      aria-hidden
    >
      <div className="flex h-full w-full flex-col items-center justify-center gap-3 rounded-2xl border-4 border-dashed border-primary text-center">
        <ImageDown className="h-12 w-12 text-primary" aria-hidden />
        <p className="text-xl font-semibold">{label}</p>
      </div>
    </div>,
    document.body,
  );
}
