import { type ErrorCode, errorMessage } from '@ai-editor/core';
import { ImageUp, Loader2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { Button } from '@/components/ui/button';
import { MAX_UPLOAD_TEXT } from '@/lib/limits';
import { cn } from '@/lib/utils';
import { OWN_DROP } from './usePageDrop';
import { ACCEPT, checkPhoto } from './validate';

/** An object URL for a file, revoked when the file changes or the component goes. */
export function useObjectUrl(file: Blob | null | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file) {
      setUrl(undefined);
      return;
    }
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url;
}

export interface UploadAreaProps {
  /** Names the field for assistive technology and tests ('Photo', 'Face photo'). */
  label: string;
  file: File | null;
  onFile(file: File | null): void;
  /** Called with the catalogue code of a refused file (the page shows its toast). */
  onReject(code: ErrorCode): void;
  /** The upload is on its way: shows 'Uploading...'. */
  busy: boolean;
  /** A job is running: the photo cannot change until it ends. */
  disabled?: boolean;
  maxBytes?: number;
  /** Hide the chosen photo's preview (the mask editor shows it instead). */
  hidePreview?: boolean;
  /** Several photos at once (a batch): given, the picker takes several and several go here. */
  onFiles?(files: File[]): void;
  /** A chosen photo is being decoded (a large one takes seconds): the page waits for it before processing. */
  onChecking?(checking: boolean): void;
  /** A photo that came another way (pasted, dropped on the page) is being decoded: shown like one chosen here. */
  checking?: boolean;
}

/** The upload area (docs/product.md#pages): drag and drop or click, one file, checked with the server's rules before anything is sent. */
export function UploadArea({
  label,
  file,
  onFile,
  onReject,
  busy,
  disabled,
  maxBytes,
  hidePreview,
  onFiles,
  onChecking,
  checking: checkingElsewhere = false,
}: UploadAreaProps) {
  const [error, setError] = useState<string>();
  const [checkingHere, setChecking] = useState(false);
  const checking = checkingHere || checkingElsewhere;
  const preview = useObjectUrl(hidePreview ? null : file);

  const refuse = (code: ErrorCode) => {
    setError(errorMessage(code));
    onReject(code);
  };

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    multiple: Boolean(onFiles),
    disabled: busy || disabled,
    // Type and size are checked below with the catalogue's messages; dropzone only counts files.
    async onDrop(accepted, rejected) {
      if (onFiles && accepted.length > 1) {
        setError(undefined);
        onFiles(accepted);
        return;
      }
      if (rejected.length > 0 || accepted.length !== 1) {
        refuse(accepted.length + rejected.length > 1 ? 'TOO_MANY_FILES' : 'FILE_REQUIRED');
        return;
      }
      const chosen = accepted[0] as File;
      setChecking(true);
      onChecking?.(true);
      const code = await checkPhoto(chosen, maxBytes).finally(() => {
        setChecking(false);
        onChecking?.(false);
      });
      if (code) {
        refuse(code);
        return;
      }
      setError(undefined);
      onFile(chosen);
    },
  });

  return (
    <div className="space-y-3">
      {/* Outside the drop zone's button, so that no control sits inside another; the zone opens it on click. */}
      <input {...getInputProps({ accept: Object.keys(ACCEPT).join(',') })} aria-label={label} />
      <div
        {...getRootProps({ role: 'button', 'aria-disabled': busy || disabled })}
        {...OWN_DROP}
        data-testid={`upload-${label.toLowerCase().replace(/\s+/g, '-')}`}
        className={cn(
          'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-6 text-center transition-colors',
          // With the photo shown elsewhere (the mask editor), the area only offers to change it.
          hidePreview && file ? 'min-h-24' : 'min-h-48',
          isDragActive ? 'border-primary bg-primary/5' : 'border-border hover:border-primary/60 hover:bg-muted/40',
          (busy || disabled) && 'cursor-not-allowed opacity-70',
        )}
      >
        {/* The visible text names the button (with the field's name first, for two upload areas). */}
        <span className="sr-only">{label}: </span>
        {busy || checking ? (
          <>
            <Loader2 className="h-8 w-8 animate-spin text-primary" aria-hidden />
            <p className="font-medium">{busy ? 'Uploading...' : 'Checking photo...'}</p>
          </>
        ) : preview ? (
          <img src={preview} alt={`Chosen ${label.toLowerCase()}`} className="max-h-72 rounded-md object-contain" />
        ) : hidePreview && file ? null : (
          <ImageUp className="h-10 w-10 text-muted-foreground" aria-hidden />
        )}
        {!busy && !checking && <p className="font-medium">Drag &amp; drop an image here, or click to select</p>}
        {!busy && onFiles && (
          <p className="text-sm text-muted-foreground">You can also paste an image, or choose several at once.</p>
        )}
        <p className="text-sm text-muted-foreground">
          Max file size: {MAX_UPLOAD_TEXT} | Supported formats: JPEG, PNG, WebP
        </p>
      </div>
      {file && !busy && !disabled && (
        <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
          <span className="truncate" data-testid="chosen-file">
            {file.name} ({(file.size / 1024 / 1024).toFixed(2)} MB)
          </span>
          <Button type="button" variant="ghost" size="sm" onClick={() => onFile(null)}>
            <X aria-hidden /> Remove
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="upload-error">
          {error}
        </p>
      )}
    </div>
  );
}
