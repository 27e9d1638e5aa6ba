import { useState } from 'react';
import type { SelectionPrompt } from '../selectObject';
import type { Tool } from './MaskToolbar';

/** Arrow keys move the keyboard crosshair by this share of the photo (Shift: five times as far). */
const KEY_STEP = 0.02;

/**
 * Select object from the keyboard: in select mode the canvas takes focus, arrow keys move a crosshair (a share of
 * the canvas, 0-1) and Enter or Space selects the object under it.
 */
export function useKeyboardCrosshair({
  tool,
  disabled,
  select,
}: {
  tool: Tool;
  disabled: boolean;
  select(prompt: SelectionPrompt): Promise<void>;
}) {
  const [crosshair, setCrosshair] = useState<{ x: number; y: number } | null>(null);

  const onKeyDown = (e: React.KeyboardEvent<HTMLCanvasElement>) => {
    if (tool !== 'select' || disabled) return;
    const at = crosshair ?? { x: 0.5, y: 0.5 };
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move) {
      setCrosshair({ x: Math.min(1, Math.max(0, at.x + move[0])), y: Math.min(1, Math.max(0, at.y + move[1])) });
    } else if (e.key === 'Enter' || e.key === ' ') {
      const canvas = e.currentTarget;
      void select({ x: at.x * (canvas.width - 1), y: at.y * (canvas.height - 1) });
    } else return;
    e.preventDefault();
  };

  const onFocus = (e: React.FocusEvent<HTMLCanvasElement>) => {
    // The crosshair is for keyboard users; a mouse or touch press also focuses the canvas.
    if (tool === 'select' && e.currentTarget.matches(':focus-visible')) {
      setCrosshair((c) => c ?? { x: 0.5, y: 0.5 });
    }
  };

  return { crosshair, onKeyDown, onFocus, onBlur: () => setCrosshair(null) };
}
