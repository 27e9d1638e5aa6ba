import { useQuery } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { failureToast } from '../errorToast';
import { fetchTries, retryJob } from '../jobs';

/** 'Try another fill': a new job on the same photo and mask with other source choices; no use is counted. */
export function TryAnotherFill({ jobId, onStarted }: { jobId: number; onStarted: (id: number) => void }) {
  const [starting, setStarting] = useState(false);
  const start = async () => {
    setStarting(true);
    try {
      onStarted((await retryJob(jobId)).id);
    } catch (err) {
      failureToast(err);
    } finally {
      setStarting(false);
    }
  };
  return (
    <Button variant="outline" onClick={start} disabled={starting}>
      {starting ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />} Try another fill
    </Button>
  );
}

/** The tries of a fill (the first job and each 'Try another fill'), as thumbnails to switch between. */
export function FillTries({ jobId, onShow }: { jobId: number; onShow: (id: number) => void }) {
  const { data: tries = [] } = useQuery({ queryKey: ['tries', jobId], queryFn: () => fetchTries(jobId) });
  const shown = tries.filter((t) => t.processedUrl);
  if (shown.length < 2) return null;
  return (
    <nav aria-label="Tries" className="flex flex-wrap gap-2">
      {shown.map((t, i) => (
        <button
          key={t.id}
          type="button"
          onClick={() => onShow(t.id)}
          aria-current={t.id === jobId ? 'true' : undefined}
          className="rounded-md border p-1 text-xs aria-[current=true]:border-primary"
        >
          <img src={t.processedUrl ?? ''} alt={`Try ${i + 1}`} className="h-16 w-16 object-cover" />
          Try {i + 1}
        </button>
      ))}
    </nav>
  );
}
