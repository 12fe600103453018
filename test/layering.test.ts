import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/, lowest first: a file may import its own layer and the layers below it, never one
 * above (cli → pipeline → workers → rows → core). `src/index.ts` is the library's door and may import any
 * layer.
 */
const LAYERS = ['core', 'rows', 'workers', 'pipeline', 'cli'] as const;

const src = path.resolve(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.c?ts$/.test(e.name) ? [full] : [];
  });
}

/** The layer a path under src/ belongs to, or null for src/index.ts and paths outside src/. */
function layerOf(file: string): number | null {
  const top = path.relative(src, file).split(path.sep)[0]!;
  const i = LAYERS.indexOf(top as (typeof LAYERS)[number]);
  return i < 0 ? null : i;
}

/** Relative module specifiers of static imports, re-exports and dynamic imports. */
function relativeImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g)) {
    specs.push(m[2]!);
  }
  return specs;
}

describe('layering: imports in src/ never go up a layer', () => {
  it('finds the files and their imports', () => {
    const all = files(src);
    expect(all.length).toBeGreaterThan(50);
    expect(all.flatMap((f) => relativeImports(readFileSync(f, 'utf8'))).length).toBeGreaterThan(100);
  });

  it('every relative import points to its own layer or one below', () => {
    const upward: string[] = [];
    for (const file of files(src)) {
      const from = layerOf(file);
      if (from === null) continue;
      for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
        const target = path.resolve(path.dirname(file), spec);
        const to = layerOf(target);
        // An import out of src/ (or of src/index.ts) from inside a layer is as wrong as one up a layer.
        if (to === null || to > from) upward.push(`${path.relative(src, file)} → ${spec}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('tells an upward import from a downward one', () => {
    // The rule itself, on paths: pipeline → workers is down (allowed), workers → pipeline is up.
    expect(layerOf(path.join(src, 'pipeline', 'a.ts'))! > layerOf(path.join(src, 'workers', 'b.ts'))!).toBe(
      true,
    );
    expect(layerOf(path.join(src, 'workers', 'a.ts'))! > layerOf(path.join(src, 'rows', 'b.ts'))!).toBe(true);
    expect(layerOf(path.join(src, 'rows', 'a.ts'))! > layerOf(path.join(src, 'core', 'b.ts'))!).toBe(true);
    expect(layerOf(path.join(src, 'index.ts'))).toBeNull();
    expect(relativeImports("import { a } from '../pipeline/x.js';\nexport * from './y.js';")).toEqual([
      '../pipeline/x.js',
      './y.js',
    ]);
  });
});
