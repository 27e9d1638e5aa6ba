import { Minus, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { ClickMode } from '../selectObject';

const MODES: { mode: ClickMode; label: string }[] = [
  { mode: 'new', label: 'New object' },
  { mode: 'add', label: 'Add' },
  { mode: 'remove', label: 'Take away' },
];

/**
 * Below the photo once an object is selected: a smaller or larger answer (a part, the object, the group it
 * touches), and what the next click does: select a new object, add to this one, or take away from it
 * (Shift-click and Alt-click do the same).
 */
export function SelectionBar({
  canSmaller,
  canLarger,
  disabled,
  mode,
  setMode,
  step,
}: {
  canSmaller: boolean;
  canLarger: boolean;
  disabled: boolean;
  mode: ClickMode;
  setMode(mode: ClickMode): void;
  step(delta: -1 | 1): void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="selection-bar">
      <Button type="button" variant="outline" size="sm" onClick={() => step(-1)} disabled={disabled || !canSmaller}>
        <Minus aria-hidden /> Smaller
      </Button>
      <Button type="button" variant="outline" size="sm" onClick={() => step(1)} disabled={disabled || !canLarger}>
        <Plus aria-hidden /> Larger
      </Button>
      <fieldset className="flex items-center gap-1" aria-label="Next click">
        <span className="text-sm text-muted-foreground">Next click:</span>
        {MODES.map((m) => (
          <Button
            key={m.mode}
            type="button"
            size="sm"
            variant={mode === m.mode ? 'secondary' : 'ghost'}
            aria-pressed={mode === m.mode}
            onClick={() => setMode(m.mode)}
            disabled={disabled}
          >
            {m.label}
          </Button>
        ))}
      </fieldset>
    </div>
  );
}
