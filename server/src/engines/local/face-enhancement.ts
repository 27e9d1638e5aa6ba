import { defineEngine } from '../define.js';
import { enhanceFaces, releaseFaceEnhancement, warmFaceEnhancement } from '../restore/face-enhance.js';

/** Face enhancement: each face restored and smoothed, feathered back into the photo (restore/face-enhance.ts). */
export default defineEngine('face-enhancement', {
  run: enhanceFaces,
  warm: warmFaceEnhancement,
  release: releaseFaceEnhancement,
});
