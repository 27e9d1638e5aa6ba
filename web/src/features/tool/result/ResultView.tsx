import { Maximize2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { CompareSlider } from './CompareSlider';
import { CHECKERBOARD } from './checkerboard';
import { ImageViewer } from './ImageViewer';

/**
 * How a result is looked at, on the tool page and the result page: before/after with a slider when the original is
 * there, else the result alone (never enlarged past its own size), and a full-size view with zoom and pan.
 */
export function ResultView({ beforeUrl, afterUrl, alt }: { beforeUrl?: string | null; afterUrl: string; alt: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="space-y-2">
      {beforeUrl ? (
        <CompareSlider beforeUrl={beforeUrl} afterUrl={afterUrl} afterAlt={alt} />
      ) : (
        <div className={cn('overflow-hidden rounded-md border', CHECKERBOARD)}>
          <img src={afterUrl} alt={alt} className="mx-auto max-h-[70vh] object-contain" />
        </div>
      )}
      <div className="flex justify-end">
        <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="open-viewer">
          <Maximize2 aria-hidden /> View full size
        </Button>
      </div>
      <ImageViewer src={afterUrl} alt={alt} open={open} onOpenChange={setOpen} />
    </div>
  );
}
