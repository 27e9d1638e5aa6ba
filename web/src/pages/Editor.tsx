import { ACCEPTED_MIME_TYPES, ERRORS, isAcceptedMime, LIMITS, OPERATIONS, type Operation } from '@ai-editor/core';
import { ArrowRight, ImagePlus, Sparkles } from 'lucide-react';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { carryPhoto } from '@/features/editor/carry';
import { PageFileTarget } from '@/features/tool/PageFileTarget';
import { UnavailableBadge } from '@/features/tool/UnavailableBadge';
import { useToolOffer } from '@/features/tool/useEngine';
import { OWN_DROP } from '@/features/tool/usePageDrop';
import { MAX_UPLOAD_TEXT } from '@/lib/limits';
import { cn } from '@/lib/utils';

interface PhotoInfo {
  width: number;
  height: number;
  /** Share of sampled pixels whose channels are (nearly) equal: 1 for a black-and-white photo. */
  grayShare: number;
}

interface Recommendation {
  op: Operation;
  reason: string;
  confidence: number;
}

/** Looks at a downscaled copy: size and whether the photo is black and white. */
async function analyse(file: File): Promise<PhotoInfo> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 64 / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * scale));
  const h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  let gray = 0;
  if (ctx) {
    ctx.drawImage(bitmap, 0, 0, w, h);
    const { data } = ctx.getImageData(0, 0, w, h);
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i] ?? 0;
      const g = data[i + 1] ?? 0;
      const b = data[i + 2] ?? 0;
      if (Math.max(r, g, b) - Math.min(r, g, b) < 12) gray++;
    }
  }
  const info = { width: bitmap.width, height: bitmap.height, grayShare: gray / (w * h) };
  bitmap.close();
  return info;
}

const PHOTO_OPS = OPERATIONS.filter((op) => op.input !== 'prompt');
const get = (id: string) => PHOTO_OPS.find((op) => op.id === id) as Operation;

/** Suggestions from what the photo looks like; confidence is how clearly the photo shows the reason. */
export function recommend(info: PhotoInfo): Recommendation[] {
  const recs: Recommendation[] = [];
  if (info.grayShare > 0.9)
    recs.push({ op: get('colorization'), reason: 'This photo is black and white.', confidence: info.grayShare });
  const longSide = Math.max(info.width, info.height);
  if (longSide < 1024)
    recs.push({
      op: get('super-resolution'),
      reason: `At ${info.width}x${info.height} pixels this photo is small; enlarge it 2x or 4x.`,
      confidence: Math.min(1, (1024 - longSide) / 768 + 0.3),
    });
  recs.push({ op: get('face-enhancement'), reason: 'Sharpen any faces in the photo.', confidence: 0.5 });
  return recs.sort((a, b) => b.confidence - a.confidence);
}

/** /editor: drop or pick a photo, see the tools that apply to it, and open one with the photo carried over. */
export default function Editor() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [url, setUrl] = useState<string>();
  const [info, setInfo] = useState<PhotoInfo>();
  const [dragging, setDragging] = useState(false);
  const { offered, unavailable } = useToolOffer();
  // A tool this server cannot run is never recommended.
  const recs = info ? recommend(info).filter((rec) => offered(rec.op)) : [];

  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);

  const accept = (f: File | undefined) => {
    if (!f) return toast({ variant: 'destructive', title: 'Error', description: ERRORS.FILE_REQUIRED.message });
    if (!isAcceptedMime(f.type))
      return toast({ variant: 'destructive', title: 'Error', description: ERRORS.INVALID_FILE_TYPE.message });
    if (f.size > LIMITS.maxUploadBytes)
      return toast({ variant: 'destructive', title: 'Error', description: ERRORS.FILE_TOO_LARGE.message });
    setFile(f);
    setUrl(URL.createObjectURL(f));
    setInfo(undefined);
    analyse(f).then(setInfo, () =>
      toast({ variant: 'destructive', title: 'Error', description: ERRORS.IMAGE_UNREADABLE.message }),
    );
  };

  const acceptOne = (files: FileList | File[]) => {
    if (files.length > 1)
      return toast({ variant: 'destructive', title: 'Error', description: ERRORS.TOO_MANY_FILES.message });
    accept(files[0]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    acceptOne(e.dataTransfer.files);
  };

  const open = (op: Operation) => {
    if (file) carryPhoto(file);
    navigate(op.route);
  };

  return (
    <Page title="Editor" lead="Drop a photo to see what AI Editor can do with it." wide>
      <PageFileTarget onFiles={acceptOne} />
      <button
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex w-full flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-10 text-center transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
          dragging && 'border-primary bg-accent',
        )}
        data-testid="editor-dropzone"
        {...OWN_DROP}
      >
        {url ? (
          <img src={url} alt="Your photo" className="max-h-72 rounded-md object-contain" />
        ) : (
          <ImagePlus className="h-10 w-10 text-muted-foreground" aria-hidden />
        )}
        <span className="font-medium">Drag & drop an image here, or click to select</span>
        <span className="text-sm text-muted-foreground">
          Max file size: {MAX_UPLOAD_TEXT} | Supported formats: JPEG, PNG, WebP
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPTED_MIME_TYPES.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose a photo"
        onChange={(e) => {
          accept(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {file && info && (
        <section className="mt-10" aria-labelledby="recommended-heading">
          <h2 id="recommended-heading" className="mb-4 text-2xl font-semibold">
            Recommended for this photo
          </h2>
          <p className="mb-4 text-sm text-muted-foreground">
            {file.name} · {info.width}x{info.height} pixels
          </p>
          <ul className="grid gap-4 md:grid-cols-3">
            {recs.map((rec) => (
              <li key={rec.op.id}>
                <Card className="flex h-full flex-col" data-testid="recommendation">
                  <CardHeader>
                    <CardTitle>
                      <Sparkles className="mr-2 inline h-4 w-4 text-primary" aria-hidden />
                      {rec.op.name}
                    </CardTitle>
                    <CardDescription>{rec.reason}</CardDescription>
                    <div className="mt-2 h-2 overflow-hidden rounded-full bg-muted" title="Confidence">
                      <div
                        className="h-full bg-primary"
                        style={{ width: `${Math.round(rec.confidence * 100)}%` }}
                        role="meter"
                        aria-label="Confidence"
                        aria-valuenow={Math.round(rec.confidence * 100)}
                        aria-valuemin={0}
                        aria-valuemax={100}
                      />
                    </div>
                  </CardHeader>
                  <div className="mt-auto p-6 pt-0">
                    <Button onClick={() => open(rec.op)}>
                      Try Now <ArrowRight aria-hidden />
                    </Button>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      )}
      {file && (
        <section className="mt-10" aria-labelledby="all-heading">
          <h2 id="all-heading" className="mb-4 text-2xl font-semibold">
            All tools for photos
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {PHOTO_OPS.map((op) => (
              <li key={op.id}>
                <button
                  type="button"
                  onClick={() => open(op)}
                  className="flex h-full w-full flex-col items-start gap-1 rounded-lg border p-4 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="font-medium">
                    {op.name}
                    {op.status === 'coming-soon' && (
                      <span className="ml-2 rounded-full bg-muted px-2 py-0.5 text-xs text-muted-foreground">
                        Coming soon
                      </span>
                    )}
                    {unavailable.has(op.id) && (
                      <span className="ml-2">
                        <UnavailableBadge />
                      </span>
                    )}
                  </span>
                  <span className="text-sm text-muted-foreground">{op.description}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
