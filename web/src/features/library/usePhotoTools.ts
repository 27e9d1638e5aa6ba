import { OPERATIONS, type Operation } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';
import { healthQuery } from '../tool/useEngine';

/** Tools that take one photo (with a mask or not): the ones a result can be passed on to. */
export const PHOTO_TOOLS = OPERATIONS.filter(
  (op) => op.status === 'working' && (op.input === 'photo' || op.input === 'photo+mask'),
);

/**
 * The photo tools this server can run now, from `GET /api/health` (the same query as the tool pages read): none
 * while it loads, so an unavailable tool is never offered; every one if health cannot be read (the tool page then
 * says if it cannot run).
 */
export function usePhotoTools(): Operation[] {
  const { data, isPending } = useQuery(healthQuery);
  if (isPending) return [];
  if (!data?.engines) return PHOTO_TOOLS;
  const off = new Set(data.engines.filter((e) => !e.available).map((e) => e.operation));
  return PHOTO_TOOLS.filter((op) => !off.has(op.id));
}
