import { ADMIN_ACTIONS, COLOR_PATTERN, ERRORS, type ErrorCode, OPERATIONS } from '@ai-editor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

type Json = Record<string, any>;

let server: TestServer;
let doc: Json;
beforeAll(async () => {
  server = await startTestServer();
  const res = await server.visitor().fetch('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(() => server?.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('/api/openapi.json', () => {
  it('lists every route with a unique operationId, a success response with its schema and the error response', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(18);
    const missing = ops.filter(({ op }) => {
      const success = Object.entries(op.responses as Record<string, Json>).filter(([status]) => /^2\d\d$/.test(status));
      const described = success.some(([status, r]) => status === '204' || Object.values(r.content ?? {}).length > 0);
      return !op.operationId || !described || op.responses.default?.$ref !== '#/components/responses/Error';
    });
    expect(missing.map((m) => m.name)).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("serves every administrator action of core's table at its route", () => {
    // The table is what the audit log and the admin page name; an action without its route would be a dead button.
    const openApiPath = (route: string) => route.replace(/:([a-z]+)/g, '{$1}');
    const served = Object.values(ADMIN_ACTIONS).filter((a) => doc.paths[openApiPath(a.route)]?.post);
    expect(served).toEqual(Object.values(ADMIN_ACTIONS));
  });

  it('gives every error code of the catalogue with its HTTP status', () => {
    const code = doc.components.schemas.Error.properties.code;
    expect([...code.enum].sort()).toEqual(Object.keys(ERRORS).sort());
    expect(code['x-http-status']).toEqual(
      Object.fromEntries(Object.entries(ERRORS).map(([c, e]) => [c, e.status])) as Record<ErrorCode, number>,
    );
  });

  it("documents each operation's form fields with the catalogue's ranges, steps, defaults and options", () => {
    const forms: Json[] = doc.paths['/api/images'].post.requestBody.content['multipart/form-data'].schema.oneOf;
    for (const op of OPERATIONS) {
      const form = forms.find((f) => f.properties.operation.enum?.[0] === op.id);
      expect(form, op.id).toBeDefined();
      for (const p of op.params) {
        const field = form?.properties[p.name];
        expect(field?.default, `${op.id}.${p.name}`).toEqual(p.default);
        if (p.kind === 'number') {
          expect([field.minimum, field.maximum], `${op.id}.${p.name}`).toEqual([p.min, p.max]);
          if (Number.isInteger(p.min / p.step)) expect(field.multipleOf).toBe(p.step);
          else expect(field.description).toContain(`steps of ${p.step}`);
        }
        if (p.kind === 'select' && !p.color) expect(field.enum).toEqual(p.options.map((o) => o.value));
        // A select that also takes a colour: its options or a #rrggbb string.
        if (p.kind === 'select' && p.color) {
          expect(field.anyOf).toEqual([
            { type: 'string', enum: p.options.map((o) => o.value) },
            { type: 'string', pattern: COLOR_PATTERN },
          ]);
        }
        if (p.kind === 'text') expect(field.maxLength).toBe(p.maxLength);
      }
    }
  });

  it('gives parameters their ranges and defaults', () => {
    const list = doc.paths['/api/images'].get.parameters as Json[];
    const limit = list.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ minimum: 1, maximum: 50, default: 20 });
    const id = (doc.paths['/api/images/{id}'].get.parameters as Json[]).find((p) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true, schema: { pattern: '^[0-9]{1,12}$' } });
  });
});
