import type { ErrorCode } from '@ai-editor/core';
import { useState } from 'react';
import { useServerConfig } from '@/lib/server';
import { errorToast } from '../errorToast';
import { fetchBlob, saveBlob } from '../jobs';

/**
 * The Download button's work, shared by the tool page's result card and the result page: a visitor who may not
 * download gets the toast and no request is made; otherwise the file is fetched with the session cookie and saved
 * under the name `fileName` gives it (the two places name files differently: docs/product.md#api-conventions). `offered` says
 * whether the deployment shows the button at all (DOWNLOADS_ENABLED; docs/product.md#pages).
 */
export function useDownload({
  canDownload,
  failure,
  onSaved,
}: {
  canDownload: boolean;
  /** The catalogue message shown when the fetch fails. */
  failure: ErrorCode;
  onSaved?: () => void;
}) {
  const { data: config } = useServerConfig();
  const offered = config?.downloadsEnabled !== false;
  const [downloading, setDownloading] = useState(false);
  /** `source`: the file's URL, or a maker of the file (the batch's zip, built in the page). */
  const download = async (source: string | (() => Promise<Blob>), fileName: (blob: Blob) => string) => {
    if (!canDownload) {
      errorToast('DOWNLOAD_RESTRICTED');
      return;
    }
    setDownloading(true);
    try {
      const blob = typeof source === 'string' ? await fetchBlob(source) : await source();
      saveBlob(blob, fileName(blob));
      onSaved?.();
    } catch {
      errorToast(failure);
    } finally {
      setDownloading(false);
    }
  };
  return { offered, downloading, download };
}
