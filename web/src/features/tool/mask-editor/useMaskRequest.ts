import { useEffect, useRef, useState } from 'react';
import { ToolError } from '../jobs';

/**
 * One request of the mask editor's at a time (a selection, a fit): `busy` while it runs, its failure in `error`
 * (shown beside the photo) and what happened in `status` (for screen readers). A new photo (`file`) drops the
 * request still running and the error.
 */
export function useMaskRequest(file: File) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    setError(null);
    return () => abortRef.current?.abort();
  }, [file]);

  /**
   * Runs `work` unless a request is running, saying `working` meanwhile (`signal` aborts when the request is
   * dropped); its answer, unless the request was dropped by then, goes to `done`, which does what was asked and says
   * what was done.
   */
  const run = async <T>(working: string, work: (signal: AbortSignal) => Promise<T>, done: (answer: T) => string) => {
    if (busy) return;
    const abort = new AbortController();
    abortRef.current = abort;
    setBusy(true);
    setError(null);
    setStatus(working);
    try {
      const answer = await work(abort.signal);
      if (abort.signal.aborted) return;
      setStatus(done(answer));
    } catch (err) {
      if (abort.signal.aborted) return;
      const e = ToolError.from(err);
      setError(e.message);
      setStatus(e.message);
    } finally {
      if (abortRef.current === abort) {
        abortRef.current = null;
        setBusy(false);
      }
    }
  };

  return { busy, error, status, setStatus, run };
}
