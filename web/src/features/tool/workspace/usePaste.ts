import { useEffect, useRef } from 'react';

/** Whether a paste lands in a place that takes text (a prompt box): plain text pastes are left to it. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT';
}

/** Images pasted from the clipboard (Ctrl/Cmd+V) anywhere on the page. */
export function usePaste(onFiles: (files: File[]) => void, enabled = true): void {
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    if (!enabled) return;
    const paste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      // Text into a text field stays text; a copied image goes to the photo even from inside a field.
      if (files.length === 0) return;
      if (isTextField(e.target) && e.clipboardData?.types.includes('text/plain')) return;
      e.preventDefault();
      latest.current(files.map(named));
    };
    document.addEventListener('paste', paste);
    return () => document.removeEventListener('paste', paste);
  }, [enabled]);
}

/** Screenshots arrive as 'image.png'; give them a name that says where they came from. */
function named(file: File): File {
  if (file.name && file.name !== 'image.png') return file;
  const ext = file.type.split('/')[1] ?? 'png';
  return new File([file], `pasted-image.${ext}`, { type: file.type, lastModified: file.lastModified });
}
