/** Which Replicate model runs an operation: `owner/name`, or `owner/name:<version>` (REPLICATE_MODEL_*). */

/** `owner/name` runs the model's current version (official models); with a version it runs exactly that one. */
export interface ModelRef {
  owner: string;
  name: string;
  version?: string;
}

export function parseModelRef(ref: string): ModelRef {
  const m = /^([\w.-]+)\/([\w.-]+)(?::([0-9a-f]{64}))?$/.exec(ref.trim());
  if (!m?.[1] || !m[2])
    throw new Error(`Replicate model "${ref}" must look like owner/name or owner/name:<64-hex version>`);
  return { owner: m[1], name: m[2], version: m[3] };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.owner}/${ref.name}${ref.version ? `:${ref.version}` : ''}`;
}
