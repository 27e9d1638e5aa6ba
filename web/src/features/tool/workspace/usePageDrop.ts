import { useEffect, useRef, useState } from 'react';

const carriesFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes('Files'));

/** Marks an element that takes its own drops (the upload areas): a drop on it is left to it. */
export const OWN_DROP = { 'data-drop-zone': '' } as const;

/**
 * Files dropped anywhere on the page. Returns whether files are being dragged over the page, for the overlay.
 * (Drop zones' own document listeners call preventDefault on every drop, so that cannot tell who took it.)
 */
export function usePageDrop(onFiles: (files: File[]) => void, enabled = true): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    if (!enabled) {
      setDragging(false);
      return;
    }
    // dragenter/dragleave fire for every element crossed: count them to know when the pointer left the window.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => {
      // Without this the browser would open the file instead of dropping it on the page.
      if (carriesFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!carriesFiles(e)) return;
      if (e.target instanceof Element && e.target.closest('[data-drop-zone]')) return;
      e.preventDefault();
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) latest.current(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [enabled]);

  return dragging;
}
