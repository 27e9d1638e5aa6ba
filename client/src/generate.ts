import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The header of the generated file. */
const HEADER = `${COMMENT_HEADER}// Generated from GET /api/openapi.json by \`npm run generate:client\`; a test fails when it drifts.\n\n`;

/** The TypeScript types of the API (paths, operations, schemas) from its OpenAPI document. */
export async function generateSchema(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3);
  return HEADER + astToString(ast);
}

/** Where the generated types are kept in the repository. */
export const SCHEMA_FILE = new URL('./schema.d.ts', import.meta.url);
