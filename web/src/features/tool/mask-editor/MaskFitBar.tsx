import { Loader2, Undo2, WandSparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * Below the photo once something is painted: Fit mask to object, or, while the fitted mask is shown, the way back
 * to the painted one.
 */
export function MaskFitBar({
  fitted,
  fitting,
  canFit,
  disabled,
  onFit,
  onBack,
}: {
  /** The fitted mask is on the canvas. */
  fitted: boolean;
  fitting: boolean;
  /** Something is painted to fit. */
  canFit: boolean;
  disabled: boolean;
  onFit(): void;
  onBack(): void;
}) {
  if (fitted) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm text-muted-foreground">The mask is fitted to the object and a little past its edge.</p>
        <Button type="button" variant="outline" size="sm" onClick={onBack} disabled={disabled}>
          <Undo2 aria-hidden /> Use my painted mask
        </Button>
      </div>
    );
  }
  if (!canFit) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" size="sm" onClick={onFit} disabled={disabled || fitting}>
        {fitting ? <Loader2 className="animate-spin" aria-hidden /> : <WandSparkles aria-hidden />}
        {fitting ? 'Fitting the mask…' : 'Fit mask to object'}
      </Button>
      <p className="text-sm text-muted-foreground">
        Grows your strokes to the edge of the object they cover, so nothing of it is left behind.
      </p>
    </div>
  );
}
