import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/, lowest first: a file may import its own layer and the layers below it, never one
 * above (cli → pipeline → workers → rows → core). `src/index.ts` is the library's door and may import any
 * layer.
 */
const LAYERS = ['core', 'rows', 'workers', 'pipeline', 'cli'] as const;

/**
 * The rooms of src/ and their doors. A room is src/core, src/rows, src/workers, src/cli, the files at
 * src/pipeline's top level (its hall, `pipeline`) or one subfolder of src/pipeline (with its own
 * subfolders). Within a room any file may import any other; from another room only the room's doors
 * (paths from the room's folder). Doors are listed here rather than gathered in index.ts files: an index
 * would load a whole room at start-up, and cli loads the pipeline's subfolders on demand.
 */
const DOORS: Record<string, readonly string[]> = {
  core: [
    'index.ts', // the engine: parse, compile, match; agents, the crawler registry, the types
    'errors.ts', // RobotsAuditError, hasCode
    'error-codes.ts', // the library's and the policies' error codes
    'bytes.ts', // byte strings: ownString, toBinary, isAscii
    'agent.ts', // normalizeAgent without loading the engine (options are read at start-up)
    'crawler-registry.ts', // crawlerInfo, resolveCrawler, MAJOR_CRAWLERS without loading the engine
    'compile.ts', // sameRuleSet: whether two compiled forms decide alike
    'appended-rules.ts', // layeredOn, and AppendedRules' baseRanks: an earlier version read in a later one's ranks
    'base-ranks.ts', // what BaseRanks is made of: a row decides by an earlier version's rules without the object
    'agent-access.ts', // what a robots.txt lets an agent reach (the report's access section)
    'group-diff.ts', // group changes between two versions of a robots.txt (the report's changes)
    'array-of.ts', // arrayOf: per-agent arrays of one shape, in the engine and in the workers alike
  ],
  rows: [
    // Every file: the pure pieces of a row that the workers and every command reading rows share.
    'record-scanner.ts', // whole records of a batch
    'field-split.ts', // a record's fields
    'quoted-records.ts', // records with quoted fields
    'csv-quote.ts', // quoting a field and a record
    'row-url.ts', // a row's URL and origin
    'shard.ts', // a row's shard
    'row-time.ts', // a row's time (--at-column, --as-of)
    'row-error-codes.ts', // why a row is invalid_input
    'verdict-format.ts', // a row's verdicts and their columns
  ],
  workers: [
    'protocol.ts', // the data crossing between the coordinator and the workers
    'port-link.ts', // request/response over a MessagePort
    'classify-worker-entry.cts', // the file a worker thread loads (builtFile)
    'batch-classifier.ts', // batches classified in the coordinator's thread (alone, or beside the workers)
    'peer-links.ts', // a classifier's ports to the others (the coordinator's thread is one of them)
    'batch-rows.ts', // a batch's records split into rows (fetch finds origins as classify does)
    'record-walk.ts', // the one walk over a batch's records into its rows (fetch reads them as classify does)
    'robots-dir-reader.ts', // one origin's file of --robots-dir, read with a cap
  ],
  pipeline: [
    'options.ts', // the resolved options of every command
    'command-options.ts', // the options each command takes
    'option-error.ts', // errors naming an option and its value
    'duration.ts', // parsing a duration
    'abort-signal.ts', // a promise given up when the run's AbortSignal fires
    'shard-option.ts', // --shard and its environment variables
    'classify-thread.ts', // classify in a coordinator thread of its own (the CLI's classify)
  ],
  'pipeline/cache': [
    'policy-cache.ts', // the SQLite cache of robots.txt versions
    'cache-types.ts', // a cached version and an observation
    'open-database.ts', // opening a cache file, migrated to the current schema
    'schema.ts', // the schema, and the observations' indexes
    'version-at.ts', // the version in force at an instant
    'cache-maintenance.ts', // `cache` stats, export and prune
    'cache-merge.ts', // `cache merge`
  ],
  'pipeline/diff': ['diff-files.ts', 'flip-tally.ts'], // `diff` and its summary
  'pipeline/fetch': [
    'live-policy-provider.ts', // policies fetched over HTTP, with the cache
    'warm-cache.ts', // `fetch`: the cache warmed for an input's origins
    'error-codes.ts', // fetch outcomes
    'redirect-location.ts', // a redirect's target, and the redirects followed at most
    'body-reader.ts', // a response body, decoded and capped
  ],
  'pipeline/figures': [
    'summary.ts', // the run's summary, built from the batches' figures
    'summary-text.ts', // the summary as stderr text
    'progress.ts', // the progress line
  ],
  'pipeline/import': [
    'import-archives.ts', // `import`: WARC archives into the cache
    'observation-store.ts', // observations stored and versions rebuilt from them (cache merge too)
    'resolve-capture.ts', // how far apart a redirect and its target capture may be (prune keeps them)
  ],
  'pipeline/input': [
    'input-source.ts', // an input file or stdin, gunzipped and UTF-16 decoded
    'header.ts', // the header row and its columns
    'batcher.ts', // batches of whole records
    'line-mode.ts', // inputs without a header row
    'shard-filter.ts', // a shard's records of each batch
    'record-origins.ts', // each record's origin as classify sees it
    'buffer-pool.ts', // recycled batch buffers (the ordered output gives them back)
  ],
  'pipeline/merge': ['merge-files.ts'], // `merge`
  'pipeline/output': [
    'output-sink.ts', // an output written whole or not at all
    'output-target.ts', // an output's path and its temporary file
    'ordered-output.ts', // batches written in input order
    'record-numbering.ts', // record numbers across shards' batches
  ],
  'pipeline/policy': [
    'policy.ts', // a policy, its origin and its provider
    'policy-broker.ts', // one fetch per origin, shared by all workers
    'provider-for.ts', // the provider the options ask for
    'robots-dir-provider.ts', // policies from --robots-dir files
    'answer-from-cache.ts', // a policy answered from a cached version
  ],
  'pipeline/report': [
    'run-report.ts', // `report`
    'report-options.ts', // its options
    'report-model.ts', // the report's JSON shape
  ],
  cli: [],
};

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

/** The room a path under src/ belongs to, or null for src/index.ts and paths outside src/. */
function roomOf(file: string): string | null {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length < 2 || parts[0] === '..') return null;
  return parts[0] === 'pipeline' && parts.length > 2 ? `pipeline/${parts[1]}` : parts[0]!;
}

/** The rooms the folders of src/ make. */
function rooms(): string[] {
  const dirs = (dir: string) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : []));
  return dirs(src).flatMap((d) =>
    d === 'pipeline' ? [d, ...dirs(path.join(src, d)).map((s) => `${d}/${s}`)] : [d],
  );
}

/**
 * Relative module specifiers of static imports (type-only ones too: they couple rooms all the same),
 * re-exports, dynamic imports and worker entry files (`builtFile`).
 */
function relativeImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bbuiltFile\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g,
  )) {
    specs.push(m[2]!);
  }
  return specs;
}

/** An import of `spec` from `file` that enters another room by a file that is not one of its doors, or null. */
function sideEntry(file: string, spec: string): string | null {
  const from = roomOf(file);
  // The compiled name of a source file: `.js` for `.ts`, `.cjs` for `.cts`.
  const target = path
    .resolve(path.dirname(file), spec)
    .replace(/\.js$/, '.ts')
    .replace(/\.cjs$/, '.cts');
  const to = roomOf(target);
  if (from === null || to === null || to === from) return null;
  const door = path.relative(path.join(src, to), target).split(path.sep).join('/');
  return DOORS[to]?.includes(door) ? null : `${path.relative(src, file)} → ${spec} (not a door of ${to})`;
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
    expect(
      relativeImports(
        "import { a } from '../pipeline/x.js';\nexport * from './y.js';\nimport type { T } from './t.js';\nbuiltFile('../w/e.cjs');",
      ),
    ).toEqual(['../pipeline/x.js', './y.js', './t.js', '../w/e.cjs']);
  });
});

describe('rooms and doors: imports from another room enter by its doors', () => {
  it('every folder is a room, and every door exists', () => {
    expect(rooms().sort()).toEqual(Object.keys(DOORS).sort());
    const missing = Object.entries(DOORS).flatMap(([room, doors]) =>
      doors.filter((d) => !existsSync(path.join(src, room, d))).map((d) => `${room}/${d}`),
    );
    expect(missing).toEqual([]);
  });

  it('every relative import into another room targets one of its doors', () => {
    const entries: string[] = [];
    for (const file of files(src)) {
      for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
        const e = sideEntry(file, spec);
        if (e !== null) entries.push(e);
      }
    }
    expect(entries).toEqual([]);
  });

  it('tells a door from a room’s inside', () => {
    // The rule itself, on paths: rooms, doors, the free inside of a room, and the library's door.
    const at = (...p: string[]) => path.join(src, ...p);
    expect(roomOf(at('pipeline', 'classify.ts'))).toBe('pipeline');
    expect(roomOf(at('pipeline', 'report', 'html', 'page.ts'))).toBe('pipeline/report');
    expect(roomOf(at('index.ts'))).toBeNull();
    // Into another room's inside: reported; through its door: not.
    expect(sideEntry(at('pipeline', 'report', 'a.ts'), '../../workers/history.js')).toMatch(
      /not a door of workers/,
    );
    expect(sideEntry(at('pipeline', 'report', 'a.ts'), '../../workers/protocol.js')).toBeNull();
    expect(sideEntry(at('pipeline', 'classify.ts'), './input/utf16-input.js')).toMatch(
      /not a door of pipeline\/input/,
    );
    expect(sideEntry(at('pipeline', 'classify.ts'), './input/header.js')).toBeNull();
    expect(sideEntry(at('pipeline', 'input', 'a.ts'), '../worker-pool.js')).toMatch(
      /\(not a door of pipeline\)$/,
    );
    expect(sideEntry(at('pipeline', 'worker-pool.ts'), '../workers/classify-worker-entry.cjs')).toBeNull();
    expect(sideEntry(at('pipeline', 'worker-pool.ts'), '../workers/classify-worker.js')).not.toBeNull();
    // Within a room, any file.
    expect(sideEntry(at('workers', 'a.ts'), './history.js')).toBeNull();
    expect(sideEntry(at('pipeline', 'report', 'html', 'a.ts'), '../site-of.js')).toBeNull();
    // The library's door may import anything.
    expect(sideEntry(at('index.ts'), './workers/history.js')).toBeNull();
  });
});
