import { useQueryClient } from '@tanstack/react-query';
import { Loader2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { queries } from '@/lib/queries';
import { failureToast } from '../errorToast';
import { cancelJob } from '../jobs';

/** Cancels a pending or running job (`POST /api/images/:id/cancel`); the polled view then shows it as cancelled. */
export function CancelJobButton({ jobId }: { jobId: number }) {
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    setCancelling(true);
    try {
      queryClient.setQueryData(queries.job(jobId).queryKey, await cancelJob(jobId));
    } catch (err) {
      failureToast(err);
    } finally {
      setCancelling(false);
    }
  };
  return (
    <Button variant="outline" onClick={cancel} disabled={cancelling} data-testid="cancel-job">
      {cancelling ? <Loader2 className="animate-spin" aria-hidden /> : <XCircle aria-hidden />} Cancel
    </Button>
  );
}
