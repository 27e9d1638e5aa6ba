import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { ReactCompareSlider, ReactCompareSliderImage } from 'react-compare-slider';
import { cn } from '@/lib/utils';
import { CHECKERBOARD } from './checkerboard';

/** Percent of the width that shows the "before" photo, as a screen reader should hear it. */
const valueText = (percent: number) => `${Math.round(percent)}% before, ${100 - Math.round(percent)}% after`;

/**
 * Before/after over one another with a handle to drag, or to focus and move with the arrow keys (5% a press).
 * The box is the result's own size at most, so a small result is not stretched; the handle is a named slider
 * with a visible focus ring (index.css).
 */
export function CompareSlider({
  beforeUrl,
  afterUrl,
  afterAlt,
  className,
}: {
  beforeUrl: string;
  afterUrl: string;
  afterAlt: string;
  className?: string;
}) {
  const root = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ w: number; h: number }>();

  // The library names its handle with a sentence of instructions; the page gives it a short name and a value.
  useEffect(() => {
    const handle = root.current?.querySelector('[data-rcs="handle-root"]');
    handle?.setAttribute('aria-label', 'Compare before and after');
    handle?.setAttribute('aria-valuetext', valueText(50));
  }, []);
  // Stable on purpose: the library puts the handle back at its default position whenever this function changes.
  const onPosition = useCallback(
    (p: number) =>
      root.current?.querySelector('[data-rcs="handle-root"]')?.setAttribute('aria-valuetext', valueText(p)),
    [],
  );

  // Never wider than the result itself, nor taller than 70% of the window: a small result keeps its size.
  const box: CSSProperties | undefined = size
    ? { maxWidth: `min(${size.w}px, calc(70vh * ${size.w / size.h}))`, aspectRatio: `${size.w} / ${size.h}` }
    : undefined;
  return (
    <div ref={root} className={cn('mx-auto w-full', className)} style={box} data-testid="compare-slider">
      <ReactCompareSlider
        className="h-full w-full rounded-md border"
        onPositionChange={onPosition}
        // Both sides on the same checkerboard: a chained job's photo may be transparent too (a cut-out).
        itemOne={
          <div className={cn('h-full w-full', CHECKERBOARD)} data-testid="compare-before">
            <ReactCompareSliderImage src={beforeUrl} alt="Before" style={{ objectFit: 'contain' }} />
          </div>
        }
        itemTwo={
          <div className={cn('h-full w-full', CHECKERBOARD)} data-testid="compare-after">
            <ReactCompareSliderImage
              src={afterUrl}
              alt={afterAlt}
              style={{ objectFit: 'contain' }}
              onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
            />
          </div>
        }
      />
    </div>
  );
}
