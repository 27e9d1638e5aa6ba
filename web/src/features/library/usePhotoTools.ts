import { OPERATIONS, type Operation } from '@ai-editor/core';
import { useHealth, useToolOffer } from '../tool/useEngine';

/** Tools that take one photo (with a mask or not): the ones a result can be passed on to. */
export const PHOTO_TOOLS = OPERATIONS.filter(
  (op) => op.status === 'working' && (op.input === 'photo' || op.input === 'photo+mask'),
);

/**
 * The photo tools this server can run now: none while health loads, so an unavailable tool is never offered;
 * every one if health cannot be read (the tool page then says if it cannot run).
 */
export function usePhotoTools(): Operation[] {
  const { isPending } = useHealth();
  const { offered } = useToolOffer();
  return isPending ? [] : PHOTO_TOOLS.filter(offered);
}
