import { extensionFor, type ImageJob, LIMITS, type Operation, resultFileName } from '@ai-editor/core';
import { Download, ExternalLink, Loader2, LogIn } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth/useAuth';
import { cn } from '@/lib/utils';
import { CHECKERBOARD } from './checkerboard';
import { ResultView } from './ResultView';
import { useDownload } from './useDownload';

export { CHECKERBOARD };

/** Every output of a job: processedUrls, or the single processedUrl of an older answer. */
export function resultUrls(job: ImageJob): string[] {
  return job.processedUrls?.length ? job.processedUrls : job.processedUrl ? [job.processedUrl] : [];
}

/** Under a guest's result: it is a preview, and what signing in gives. */
function PreviewNotice() {
  const { signIn, busy } = useAuth();
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border px-4 py-3 text-sm"
      data-testid="preview-notice"
    >
      <p>
        This is a preview (up to {LIMITS.guestPreviewMaxSidePx} px). Sign in with Google to get the full-size image and
        the download.
      </p>
      <Button size="sm" variant="outline" onClick={signIn} disabled={busy}>
        <LogIn aria-hidden /> Sign In
      </Button>
    </div>
  );
}

/** Thumbnails to pick one of several results (shown only when there are several). */
export function ResultGallery({
  urls,
  selected,
  onSelect,
}: {
  urls: string[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  if (urls.length < 2) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Results" data-testid="result-gallery">
      {urls.map((u, i) => (
        <li key={u}>
          <button
            type="button"
            onClick={() => onSelect(i)}
            aria-pressed={i === selected}
            aria-label={`Show result ${i + 1}`}
            className={cn(
              'overflow-hidden rounded-md border-2',
              CHECKERBOARD,
              i === selected ? 'border-primary' : 'border-transparent opacity-80 hover:opacity-100',
            )}
          >
            <img src={u} alt="" className="h-20 w-20 object-cover" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The Result card (docs/product.md#pages): the result (with a before/after slider when there is a photo to compare with), a small
 * gallery when the operation returned several images, the Download button and a link to the result page.
 */
export function ResultCard({
  op,
  job,
  beforeUrl,
  canDownload,
  actions,
  edited,
  editor,
}: {
  op: Operation;
  job: ImageJob;
  /** The uploaded photo (the server's copy, or the local one). */
  beforeUrl?: string;
  /** This visitor may download (guests may not: they get the toast, and no request is made). */
  canDownload: boolean;
  /** More buttons for the shown result (its index), e.g. 'Use in another tool'. */
  actions?: (index: number) => ReactNode;
  /** Outputs the visitor edited in the page, in the job's order: shown and downloaded instead of the job's. */
  edited?: { urls: string[]; blobs: Blob[] } | null;
  /** Shown in place of the result while the visitor edits it. */
  editor?: ReactNode;
}) {
  const urls = edited?.urls ?? resultUrls(job);
  const [selected, setSelected] = useState(0);
  const { offered, downloading, download } = useDownload({ canDownload, failure: 'DOWNLOAD_FAILED' });
  const shown = urls[Math.min(selected, urls.length - 1)];
  if (!shown) return null;

  const after = `Result${urls.length > 1 ? ` ${selected + 1} of ${urls.length}` : ''}`;
  return (
    <Card data-testid="result-card">
      <CardHeader>
        <CardTitle as="h2">Result</CardTitle>
        {beforeUrl && !editor && (
          <CardDescription>Drag the handle, or focus it and use the arrow keys, to compare.</CardDescription>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {editor ?? <ResultView beforeUrl={beforeUrl} afterUrl={shown} alt={after} />}
        {job.preview && <PreviewNotice />}
        <ResultGallery urls={urls} selected={selected} onSelect={setSelected} />
      </CardContent>
      <CardFooter className="flex flex-wrap gap-3">
        {offered && (
          <Button
            onClick={() =>
              download(
                edited ? async () => edited.blobs[selected] as Blob : (job.downloadUrls?.[selected] ?? shown),
                (blob) => resultFileName(op.id, job.id, selected, extensionFor(blob.type)),
              )
            }
            disabled={downloading}
          >
            {downloading ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />} Download
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to={`/result?id=${job.id}`}>
            <ExternalLink aria-hidden /> Open result page
          </Link>
        </Button>
        {actions?.(selected)}
      </CardFooter>
    </Card>
  );
}
