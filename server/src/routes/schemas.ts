/** JSON schemas of the API, for validation and the OpenAPI document (/api/openapi.json). */
export const errorSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  required: ['code', 'message'],
} as const;

export const idParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9]{1,12}$' } },
  required: ['id'],
} as const;

export const fileParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9]{1,12}$' }, index: { type: 'string', pattern: '^[0-9]{1,2}$' } },
  required: ['id', 'index'],
} as const;

const nullableString = { type: ['string', 'null'] } as const;

export const imageSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    operation: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'completed', 'failed'] },
    originalUrl: nullableString,
    processedUrl: nullableString,
    processedUrls: { type: 'array', items: { type: 'string' } },
    downloadUrls: { type: 'array', items: { type: 'string' } },
    parameters: { type: 'object', additionalProperties: true },
    metadata: {
      type: 'object',
      additionalProperties: true,
      description:
        'While pending: stage, percent (where known), queuePosition. When failed: error (the message to show) and, where the error catalogue has one, errorCode.',
    },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    completedAt: nullableString,
    sourceImageId: { type: ['integer', 'null'], description: "The job whose result was this job's photo" },
    sourceIndex: { type: ['integer', 'null'] },
  },
  required: ['id', 'operation', 'status', 'originalUrl', 'processedUrl', 'metadata', 'createdAt'],
} as const;
