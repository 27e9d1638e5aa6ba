import type { Progress } from '../engines/types.js';

/**
 * Coalesces progress reports into at most one `save` per `intervalMs` (a new stage is saved at once): an engine may
 * report many times a second, the database hears of it a few times. The latest report is always saved in the end.
 */
export function coalesceProgress(save: (p: Progress) => void, intervalMs: number): (p: Progress) => void {
  let last = 0;
  let lastStage = '';
  let pending: Progress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    timer = undefined;
    const p = pending;
    pending = undefined;
    if (!p) return;
    last = Date.now();
    lastStage = p.stage;
    save(p);
  };
  return (p) => {
    pending = p;
    const due = p.stage !== lastStage ? 0 : Math.max(0, last + intervalMs - Date.now());
    if (due === 0) {
      clearTimeout(timer);
      write();
    } else timer ??= setTimeout(write, due);
  };
}
