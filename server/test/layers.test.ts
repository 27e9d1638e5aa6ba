/**
 * The server's layers (docs/engines.md): routes → services → repositories → adapters → engines. Nothing imports a
 * layer above its own, engines import nothing outside engines/ (but the Logger type of logging.ts), and services see neither HTTP (Fastify) nor an image
 * or model library (their image work goes through adapters/image.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const RANK: Record<string, number> = { engines: 0, adapters: 1, repositories: 2, services: 3, routes: 4 };

const files = (fs.readdirSync(SRC, { recursive: true }) as string[]).filter((f) => /\.(ts|cjs|mjs)$/.test(f));

/** Every import of every file: [importer, what it names] (relative ones resolved to a path under src/). */
const imports = files.flatMap((file) => {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\(\s*)['"]([^'"]+)['"]/g)].map(([, spec]) => {
    const target = (spec as string).startsWith('.')
      ? path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), spec as string))
      : (spec as string);
    return { file: file.split(path.sep).join('/'), spec: spec as string, target: target.split(path.sep).join('/') };
  });
});
const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : '.');

describe('server layers', () => {
  it('has imports to read (the check itself works)', () => {
    expect(
      imports.filter((i) => folderOf(i.file) === 'services' && folderOf(i.target) === 'repositories').length,
    ).toBeGreaterThan(0);
  });

  it('no layer imports one above it', () => {
    const upward = imports
      .filter((i) => i.spec.startsWith('.'))
      .filter((i) => {
        const from = RANK[folderOf(i.file)];
        const to = RANK[folderOf(i.target)];
        return from !== undefined && to !== undefined && to > from;
      })
      .map((i) => `${i.file} -> ${i.target}`);
    expect(upward).toEqual([]);
  });

  it('engines import nothing outside engines/ but the Logger type (logging.ts, one for every layer)', () => {
    const out = imports
      .filter((i) => folderOf(i.file) === 'engines' && i.spec.startsWith('.') && folderOf(i.target) !== 'engines')
      .filter((i) => i.target !== 'logging.js')
      .map((i) => `${i.file} -> ${i.target}`);
    expect(out).toEqual([]);
  });

  it('services import no HTTP framework and no image or model library', () => {
    const banned = /^(fastify|@fastify\/|sharp$|onnxruntime|@tensorflow\/|@techstark\/opencv|opencv)/;
    const out = imports
      .filter((i) => folderOf(i.file) === 'services' && banned.test(i.spec))
      .map((i) => `${i.file} -> ${i.spec}`);
    expect(out).toEqual([]);
  });

  it('has no import loops', () => {
    const edges = new Map<string, string[]>();
    for (const i of imports.filter((i) => i.spec.startsWith('.'))) {
      const target = i.target.replace(/\.js$/, '.ts');
      if (files.includes(target)) edges.set(i.file, [...(edges.get(i.file) ?? []), target]);
    }
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        loops.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(loops).toEqual([]);
  });
});

/**
 * The web app's layers (docs/architecture.md): lib (data and helpers) → components (the shell and UI kit) → features → pages
 * → the app (routes.tsx, main.tsx). Nothing imports a folder above its own.
 */
describe('web layers', () => {
  const WEB = fileURLToPath(new URL('../../web/src/', import.meta.url));
  const WEB_RANK: Record<string, number> = { lib: 0, components: 1, features: 2, pages: 3 };
  const webFiles = (fs.readdirSync(WEB, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
  const webImports = webFiles.flatMap((file) => {
    const text = fs.readFileSync(path.join(WEB, file), 'utf8');
    return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)].flatMap(([, spec]) => {
      const s = spec as string;
      let target: string | undefined;
      if (s.startsWith('@/')) target = s.slice(2);
      else if (s.startsWith('.')) target = path.relative(WEB, path.resolve(path.dirname(path.join(WEB, file)), s));
      return target === undefined
        ? []
        : [{ file: file.split(path.sep).join('/'), target: target.split(path.sep).join('/') }];
    });
  });

  it('has imports to read (the check itself works)', () => {
    expect(
      webImports.filter((i) => folderOf(i.file) === 'features' && folderOf(i.target) === 'lib').length,
    ).toBeGreaterThan(0);
  });

  it('no folder imports one above it', () => {
    const upward = webImports
      .filter((i) => {
        const from = WEB_RANK[folderOf(i.file)];
        const to = WEB_RANK[folderOf(i.target)];
        return from !== undefined && (to === undefined ? folderOf(i.target) === '.' : to > from);
      })
      .map((i) => `${i.file} -> ${i.target}`);
    expect(upward).toEqual([]);
  });
});
