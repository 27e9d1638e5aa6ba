import type { CatalogueEntry, OperationId } from '@ai-editor/core';
import { defineEngine, type EngineDefinition } from './define.js';
import { decode, encodePng, type RawImage } from './raster/image.js';
import type { EngineContext, Job, LocalEngine } from './types.js';

/** The operations that take a photo (every one but the prompt-only ones). */
type PhotoOperationId = { [K in OperationId]: CatalogueEntry<K>['input'] extends 'prompt' ? never : K }[OperationId];

/** What a photo engine's work gives back: one image, encoded by the base, and notes for the job's metadata. */
export interface PhotoResult {
  image: RawImage;
  metadata?: Record<string, unknown>;
}

export interface PhotoEngineDefinition<Id extends PhotoOperationId> extends Omit<EngineDefinition<Id>, 'run'> {
  /** The work's stage, as the progress bar names it. */
  stage: string;
  /** Where the job's progress stands (0-100) when the photo is read, while the work runs and when it is encoded. */
  percents: { read: number; work: readonly [from: number, to: number]; encode: number };
  /** The work on the decoded photo; `progress(f)` reports a fraction f (0-1) of it done, under `stage`. */
  run(
    job: Job<Id>,
    photo: RawImage,
    progress: (fraction: number) => void,
    ctx: EngineContext,
  ): Promise<PhotoResult> | PhotoResult;
}

/**
 * Makes a photo → photo engine (after IOPaint's model base): the base reads the photo ('Reading the photo'),
 * hands the decoded pixels to `run`, places its progress between the `work` percents, and encodes its image as the
 * job's one PNG ('Encoding'). Engines with several outputs, a mask or their own reading keep `defineEngine`.
 */
export function definePhotoEngine<Id extends PhotoOperationId>(
  operation: Id,
  def: PhotoEngineDefinition<NoInfer<Id>>,
): LocalEngine<Id> {
  const { stage, percents, run, ...rest } = def;
  const [from, to] = percents.work;
  return defineEngine(operation, {
    ...rest,
    async run(job, ctx) {
      ctx.progress({ stage: 'Reading the photo', percent: percents.read });
      // Id takes a photo (PhotoOperationId) and defineEngine checked it came: TypeScript cannot tell in a generic Job.
      const photo = await decode((job as unknown as { image: Buffer }).image);
      const progress = (f: number) => ctx.progress({ stage, percent: Math.round(from + (to - from) * f) });
      const { image, metadata } = await run(job, photo, progress, ctx);
      ctx.progress({ stage: 'Encoding', percent: percents.encode });
      return { images: [await encodePng(image)], metadata };
    },
  });
}
