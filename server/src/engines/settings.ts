import type { OperationId } from '@ai-editor/core';

export const ENGINE_CHOICES = ['local', 'replicate', 'off'] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];

/**
 * What the registry and the provider engine are given of the server's settings (config.ts reads them at start;
 * engines never read the environment or import the server's configuration).
 */
export interface EngineSettings {
  /** Per-operation engine choice (ENGINE_<OPERATION>); unset means the default rule. */
  engineChoice: Partial<Record<OperationId, EngineChoice>>;
  replicateApiToken?: string;
  replicateApiBaseUrl: string;
  /** Replicate model per operation, 'owner/name' or 'owner/name:version' (REPLICATE_MODEL_TEXT2IMG=...). */
  replicateModels: Record<string, string | undefined>;
  /** Generic input template per operation, JSON with $image/$image2/$mask/$params.x (REPLICATE_INPUT_DENOISING=...). */
  replicateInputs: Record<string, string | undefined>;
  /** First delay between prediction polls; later polls back off to 5x this. */
  replicatePollMs: number;
}
