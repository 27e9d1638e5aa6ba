import { LIMITS } from '@ai-editor/core';
import { useServerConfig } from '@/lib/server';

/** The upload and output limits in force on this server (`GET /api/config`), the catalogue's until it answers. */
export function useLimits(): { maxBytes: number; maxOutputPixels: number } {
  const { data: config } = useServerConfig();
  return {
    maxBytes: config?.limits?.maxUploadBytes ?? LIMITS.maxUploadBytes,
    maxOutputPixels: Number(config?.limits?.maxOutputPixels) || LIMITS.maxOutputPixels,
  };
}
