import { errorMessage, getOperation, LIMITS, type LibraryItem } from '@ai-editor/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, ExternalLink, ImageOff, Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { TextLink } from '@/components/ui/text-link';
import { toast } from '@/components/ui/use-toast';
import { useMe } from '@/features/auth/api';
import { deleteAllImages, deleteImage } from '@/features/library/api';
import { UseInTool } from '@/features/library/UseInTool';
import { jobPercent } from '@/features/tool/jobs';
import { CHECKERBOARD } from '@/features/tool/result/ResultCard';
import { queries } from '@/lib/queries';
import { useServerConfig } from '@/lib/server';
import { cn } from '@/lib/utils';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** '23 h', '40 min': how long until the files are deleted. */
function timeLeft(expiresAt: string, now: number): string {
  const minutes = Math.max(0, Math.round((Date.parse(expiresAt) - now) / 60_000));
  return minutes >= 60 ? `${Math.round(minutes / 60)} h` : `${minutes} min`;
}

const failed = () =>
  toast({ variant: 'destructive', title: 'Error', description: 'Could not delete. Please try again.' });

/**
 * My images: the visitor's jobs, newest first, a page at a time (`GET /api/images`), each with its server-made
 * thumbnail, its tool, its status (polled while any job runs), when it was made and when it will be deleted.
 */
export default function MyImages() {
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const { data: config } = useServerConfig();
  const hours = config?.limits?.retentionHours ?? LIMITS.retentionHours;
  const query = useInfiniteQuery({
    ...queries.library(me?.user?.uid ?? 'guest'),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((i) => i.status === 'pending')) ? LIMITS.pollIntervalToolMs : false,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const [confirmAll, setConfirmAll] = useState(false);
  const [deleting, setDeleting] = useState<number | 'all' | null>(null);

  const removeOne = async (item: LibraryItem) => {
    setDeleting(item.id);
    try {
      await deleteImage(item.id);
      queryClient.removeQueries(queries.job(item.id));
      await query.refetch();
      toast({ title: 'Deleted', description: `${nameOf(item)} and its photo were deleted.` });
    } catch {
      failed();
    } finally {
      setDeleting(null);
    }
  };

  const removeAll = async () => {
    setDeleting('all');
    try {
      const n = await deleteAllImages();
      setConfirmAll(false);
      await query.refetch();
      toast({ title: 'Deleted', description: `${n} ${n === 1 ? 'image was' : 'images were'} deleted.` });
    } catch {
      failed();
    } finally {
      setDeleting(null);
    }
  };

  return (
    <Page
      title="My images"
      lead={`Your photos and results on this server, newest first. They are deleted ${hours} hours after they are made; delete them sooner here.`}
      wide
    >
      {items.length > 0 && (
        <div className="mb-6 flex flex-wrap items-center gap-3">
          {confirmAll ? (
            <>
              <span className="text-sm font-medium" id="confirm-all">
                Delete every image listed here, now?
              </span>
              <Button
                variant="destructive"
                onClick={removeAll}
                disabled={deleting === 'all'}
                aria-describedby="confirm-all"
                data-testid="confirm-delete-all"
              >
                {deleting === 'all' ? <Loader2 className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />} Yes,
                delete all
              </Button>
              <Button variant="outline" onClick={() => setConfirmAll(false)}>
                Keep them
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={() => setConfirmAll(true)} data-testid="delete-all">
              <Trash2 aria-hidden /> Delete all
            </Button>
          )}
        </div>
      )}

      {query.isPending ? (
        <p className="flex items-center gap-2 text-muted-foreground" role="status">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Loading your images...
        </p>
      ) : query.isError ? (
        <p role="alert" className="text-destructive">
          {errorMessage('IMAGE_LOAD_FAILED')}
        </p>
      ) : items.length === 0 ? (
        <div className="rounded-lg border border-dashed p-10 text-center" data-testid="library-empty">
          <ImageOff className="mx-auto mb-3 h-10 w-10 text-muted-foreground" aria-hidden />
          <p className="font-medium">No images yet</p>
          <p className="mt-1 text-sm text-muted-foreground">
            What you make with the <TextLink to="/ai-apps">AI tools</TextLink> appears here.
          </p>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="library">
          {items.map((item) => (
            <LibraryCard key={item.id} item={item} deleting={deleting === item.id} onDelete={() => removeOne(item)} />
          ))}
        </ul>
      )}

      {query.hasNextPage && (
        <Button
          variant="outline"
          className="mt-6"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          data-testid="load-more"
        >
          {query.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden />} Show older images
        </Button>
      )}
    </Page>
  );
}

const nameOf = (item: LibraryItem) => getOperation(item.operation)?.name ?? item.operation;

function StatusLine({ item }: { item: LibraryItem }) {
  if (item.status === 'completed') {
    return (
      <span className="flex items-center gap-1 text-green-700 dark:text-green-400">
        <CheckCircle2 className="h-4 w-4" aria-hidden /> Completed
      </span>
    );
  }
  if (item.status === 'failed') {
    return (
      <span className="flex items-center gap-1 text-destructive">
        <AlertCircle className="h-4 w-4" aria-hidden /> {item.metadata.error || 'Failed'}
      </span>
    );
  }
  const percent = jobPercent(item);
  return (
    <span className="flex items-center gap-1 text-primary">
      <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Processing{percent !== undefined && ` ${percent}%`}
    </span>
  );
}

function LibraryCard({ item, deleting, onDelete }: { item: LibraryItem; deleting: boolean; onDelete(): void }) {
  const name = nameOf(item);
  const made = when.format(new Date(item.createdAt));
  return (
    <li className="flex gap-4 rounded-lg border bg-card p-4" data-testid="library-item" data-job-id={item.id}>
      <Link
        to={`/result?id=${item.id}`}
        className={cn(
          'flex h-24 w-24 shrink-0 items-center justify-center overflow-hidden rounded-md border',
          CHECKERBOARD,
        )}
        aria-label={`Open ${name} from ${made}`}
      >
        {item.thumbnailUrl ? (
          <img src={item.thumbnailUrl} alt="" className="h-full w-full object-contain" data-testid="thumbnail" />
        ) : (
          <ImageOff className="h-6 w-6 text-muted-foreground" aria-hidden />
        )}
      </Link>
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <h2 className="truncate text-base font-semibold">{name}</h2>
        <div aria-live="polite" data-testid="library-status">
          <StatusLine item={item} />
        </div>
        <p className="text-muted-foreground">
          Made <time dateTime={item.createdAt}>{made}</time>
        </p>
        <p className="text-muted-foreground">
          Deleted in <time dateTime={item.expiresAt}>{timeLeft(item.expiresAt, Date.now())}</time>
        </p>
        <div className="flex flex-wrap gap-2 pt-2">
          <Button asChild size="sm" variant="outline">
            <Link to={`/result?id=${item.id}`}>
              <ExternalLink aria-hidden /> Open
            </Link>
          </Button>
          {item.status === 'completed' && <UseInTool jobId={item.id} exclude={item.operation} size="sm" />}
          <Button
            size="sm"
            variant="ghost"
            onClick={onDelete}
            disabled={deleting}
            aria-label={`Delete ${name} from ${made}`}
            data-testid="delete-image"
          >
            {deleting ? <Loader2 className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />} Delete
          </Button>
        </div>
      </div>
    </li>
  );
}
