import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import type * as Maintenance from '../pipeline/cache/cache-maintenance.js';
import type { CacheStats } from '../pipeline/cache/cache-maintenance.js';
import type { CachedVersion } from '../pipeline/cache/cache-types.js';
import type { PolicyCache } from '../pipeline/cache/policy-cache.js';
import { parseInstant, versionAt } from '../pipeline/cache/version-at.js';
import { COMMAND_OPTIONS, type CommandOptions } from '../pipeline/command-options.js';
import { DEFAULTS, type Options, resolveOptions } from '../pipeline/options.js';
import { OutputSink } from '../pipeline/output/output-sink.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownCommandCheck, unknownOptionCheck } from './did-you-mean.js';
import { EXIT, reportFatal, signalExitCode, stopOnSignals } from './exit.js';
import { numberOption } from './numeric-option.js';

/** `robots-audit cache stats|show ORIGIN|export|prune --older-than DAYS|merge FILE... -o OUT`. */

type Args = Record<string, unknown>;
const DAY_MS = 24 * 60 * 60 * 1000;

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
const fmt = (n: number) => n.toLocaleString('en-US');

function statsText(s: CacheStats): string {
  return [
    `cache      ${s.path} (schema ${s.schemaVersion}, ${fmt(s.fileBytes)} bytes)`,
    `origins    ${fmt(s.origins)} (fresh ${fmt(s.fresh)}, expired ${fmt(s.expired)})`,
    `outcomes   parsed ${fmt(s.outcomes.parsed)}, unavailable ${fmt(s.outcomes.unavailable)}, unreachable ${fmt(s.outcomes.unreachable)}`,
    `versions   ${fmt(s.versions)} (history included)`,
    `bodies     ${fmt(s.bodies)} distinct, ${fmt(s.bodyBytes)} bytes`,
    `fetched    oldest ${iso(s.oldestFetchedAt)}, newest ${iso(s.newestFetchedAt)}`,
    '',
  ].join('\n');
}

function versionText(v: CachedVersion): string {
  const evidence = [
    v.status === null ? null : `status ${v.status}`,
    v.errorCode,
    v.sha256 === null ? null : `${fmt(v.bytes)} bytes${v.truncated ? ' (truncated)' : ''} sha256 ${v.sha256}`,
  ].filter((x) => x !== null);
  return [
    `  ${iso(v.validFrom)} → ${v.validTo === null ? 'now' : iso(v.validTo)}  ${v.outcome}  ${evidence.join(', ')}`,
    `    final ${v.finalUrl ?? '-'}; last confirmed ${iso(v.fetchedAt)}; expires ${iso(v.expiresAt)}` +
      (v.etag !== null ? `; etag ${v.etag}` : '') +
      (v.lastModified !== null ? `; last-modified ${v.lastModified}` : '') +
      `; source ${v.source ?? 'fetch'}`,
  ].join('\n');
}

function showText(origin: string, versions: CachedVersion[]): string {
  const current = versions.find((v) => v.validTo === null);
  const lines = [
    `${origin} (${versions.length} version${versions.length === 1 ? '' : 's'})`,
    ...versions.map(versionText),
  ];
  if (current?.body) lines.push('  current body:', current.body.toString('utf8').replace(/^/gm, '  | '));
  return `${lines.join('\n')}\n`;
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** The cache modules, loaded on use: the SQLite addon costs startup time for every other command. */
type Lib = typeof Maintenance & { open(options: Pick<Options, 'cache'>): PolicyCache };

async function loadLib(): Promise<Lib> {
  const [maintenance, { PolicyCache }] = await Promise.all([
    import('../pipeline/cache/cache-maintenance.js'),
    import('../pipeline/cache/policy-cache.js'),
  ]);
  return { ...maintenance, open: (options) => new PolicyCache(options.cache, { mustExist: true }) };
}

async function stats(lib: Lib, options: CommandOptions<'cache stats'>): Promise<number> {
  const cache = lib.open(options);
  try {
    const s = lib.cacheStats(cache, Date.now(), options.maxAge * 1000);
    process.stdout.write(options.json ? `${JSON.stringify(s, null, 2)}\n` : statsText(s));
    return EXIT.ok;
  } finally {
    cache.close();
  }
}

async function show(
  lib: Lib,
  options: CommandOptions<'cache show'>,
  arg: string,
  atText: unknown,
): Promise<number> {
  const at = atText === undefined ? undefined : parseInstant(String(atText));
  const cache = lib.open(options);
  try {
    const origins = lib.originsNamed(cache, arg);
    const found = origins.map((o) => [o, cache.history(o)] as const).filter(([, v]) => v.length > 0);
    if (found.length === 0) {
      process.stderr.write(`robots-audit: no cached policy for ${arg}\n`);
      return 1;
    }
    if (at !== undefined) return await showAt(found, at, options.json === true);
    for (const [origin, versions] of found) {
      if (options.json) {
        const json = versions.map((v) => ({ ...v, body: v.body?.toString('base64') ?? null }));
        await write(process.stdout, `${JSON.stringify({ origin, versions: json }, null, 2)}\n`);
      } else await write(process.stdout, showText(origin, versions));
    }
    return EXIT.ok;
  } finally {
    cache.close();
  }
}

/** `show ORIGIN --at TIME`: the version in force at TIME of each origin; exit 1 when none was yet. */
async function showAt(
  found: ReadonlyArray<readonly [string, CachedVersion[]]>,
  at: number,
  json: boolean,
): Promise<number> {
  let missing = 0;
  for (const [origin, versions] of found) {
    const v = versionAt(versions, at);
    if (v === undefined) missing++;
    if (json) {
      const version = v === undefined ? null : { ...v, body: v.body?.toString('base64') ?? null };
      await write(process.stdout, `${JSON.stringify({ origin, at: iso(at), version }, null, 2)}\n`);
    } else if (v === undefined) {
      await write(
        process.stdout,
        `${origin}: no version in force at ${iso(at)} (the first is from ${iso(versions[0]!.validFrom)})\n`,
      );
    } else {
      const body = v.body === null ? [] : ['  body:', v.body.toString('utf8').replace(/^/gm, '  | ')];
      await write(process.stdout, `${[`${origin} at ${iso(at)}:`, versionText(v), ...body].join('\n')}\n`);
    }
  }
  return missing === found.length ? 1 : EXIT.ok;
}

async function exportAll(lib: Lib, options: CommandOptions<'cache export'>): Promise<number> {
  const cache = lib.open(options);
  // Same rules as classify's OUTPUT: a file appears whole or not at all, `.gz` compresses, `-` is stdout.
  const sink = OutputSink.open(options.output, { label: 'export' });
  try {
    for (const record of lib.exportRecords(cache))
      await sink.write(Buffer.from(`${JSON.stringify(record)}\n`));
    await sink.commit();
    return EXIT.ok;
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    cache.close();
  }
}

async function prune(lib: Lib, options: CommandOptions<'cache prune'>): Promise<number> {
  const cache = lib.open(options);
  try {
    const r = lib.pruneCache(cache, Date.now() - options.olderThan! * DAY_MS);
    if (options.json) process.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      process.stdout.write(
        `pruned ${fmt(r.origins)} origins not confirmed for ${options.olderThan} days, ` +
          `${fmt(r.historyVersions)} older versions, ${fmt(r.bodies)} bodies\n`,
      );
    }
    return EXIT.ok;
  } finally {
    cache.close();
  }
}

const CACHE_OPTION: Record<string, YargsOption> = {
  cache: { type: 'string', describe: 'SQLite policy cache file (default .robots-audit-cache.sqlite)' },
};

type CacheCommand = 'cache stats' | 'cache show' | 'cache export' | 'cache prune';

/** The command-line spelling of each option the cache commands take. */
const FLAGS: Record<(typeof COMMAND_OPTIONS)[CacheCommand][number], string> = {
  cache: 'cache',
  maxAge: 'max-age',
  json: 'json',
  output: 'output',
  olderThan: 'older-than',
};

function sub<C extends CacheCommand>(
  name: C,
  describe: string,
  options: Record<string, YargsOption>,
  action: (lib: Lib, options: CommandOptions<C>, argv: Args) => Promise<number>,
  positional?: { name: string; describe: string },
): CommandModule<object, Args> {
  const word = name.slice('cache '.length);
  const command = positional === undefined ? word : `${word} <${positional.name}>`;
  const builder = (y: Argv) =>
    (positional === undefined
      ? y
      : y.positional(positional.name, { type: 'string', describe: positional.describe })
    )
      .options(options)
      .middleware(unknownOptionCheck([CACHE_OPTION, options], positional ? [positional.name] : []), true);
  return {
    command,
    describe,
    builder: builder as unknown as CommandModule<object, Args>['builder'],
    handler: async (argv) => {
      try {
        const given = COMMAND_OPTIONS[name].map((option) => [option, argv[FLAGS[option]]]);
        const options = resolveOptions(Object.fromEntries(given), name);
        process.exitCode = await action(await loadLib(), options, argv);
      } catch (err) {
        process.exitCode = reportFatal(err);
      }
    },
  };
}

const json: Record<string, YargsOption> = {
  json: { type: 'boolean', describe: 'Print JSON instead of text' },
};

const MERGE_OPTIONS: Record<string, YargsOption> = {
  ...json,
  output: { alias: 'o', type: 'string', demandOption: true, describe: 'The merged cache file (a new file)' },
};

/** `cache merge A B … -o ALL`: every version of every origin of the inputs in one new cache file. */
const mergeSub: CommandModule<object, Args> = {
  command: 'merge <caches..>',
  describe: 'Merge cache files into a new one: every version of every origin, each body once',
  builder: ((y: Argv) =>
    y
      .positional('caches', { type: 'string', array: true, describe: 'Cache files to merge (read only)' })
      .options(MERGE_OPTIONS)
      .middleware(
        unknownOptionCheck([CACHE_OPTION, MERGE_OPTIONS], ['caches']),
        true,
      )) as unknown as CommandModule<object, Args>['builder'],
  handler: async (argv) => {
    const stop = stopOnSignals();
    try {
      const { mergeCaches } = await import('../pipeline/cache/cache-merge.js');
      const r = await mergeCaches((argv.caches as string[]).map(String), String(argv.output), {
        signal: stop.signal,
      });
      process.stdout.write(
        argv.json
          ? `${JSON.stringify(r)}\n`
          : `merged ${r.inputs} caches into ${r.output}: ${fmt(r.origins)} origins, ${fmt(r.versions)} versions, ${fmt(r.bodies)} bodies\n`,
      );
      process.exitCode = EXIT.ok;
    } catch (err) {
      const stoppedBy = stop.stoppedBy();
      process.exitCode = stoppedBy === null ? reportFatal(err) : signalExitCode(stoppedBy);
    } finally {
      stop.dispose();
    }
  },
};

export const CACHE_SUBCOMMANDS = [
  sub(
    'cache stats',
    'Counts by outcome, freshness, versions, bodies, file size',
    { ...json, 'max-age': numberOption('Seconds a policy counts as fresh', DEFAULTS.maxAge) },
    stats,
  ),
  sub(
    'cache show',
    'Every stored version of an origin (or of every origin of a bare host), current body last',
    {
      ...json,
      at: { type: 'string', describe: 'Only the version in force at this time (RFC 3339, epoch, …)' },
    },
    (lib, options, argv) => show(lib, options, String(argv.origin), argv.at),
    { name: 'origin', describe: 'https://host[:port] or a bare host' },
  ),
  sub(
    'cache export',
    'Every version as JSON lines (bodies in base64)',
    { output: { alias: 'o', type: 'string', describe: 'Output file, or - for stdout' } },
    exportAll,
  ),
  sub(
    'cache prune',
    'Remove origins not confirmed and history versions ended more than DAYS ago',
    { ...json, 'older-than': { ...numberOption('Age in days'), demandOption: true } },
    prune,
  ),
  mergeSub,
];

export const cacheCommand: CommandModule = {
  ...COMMAND_LINES.cache,
  builder: (yargs: Argv) =>
    CACHE_SUBCOMMANDS.reduce((y, command) => y.command(command), yargs.options(CACHE_OPTION))
      .middleware(
        unknownCommandCheck(
          CACHE_SUBCOMMANDS.map((c) => String(c.command).split(' ')[0]!),
          ['cache'],
        ),
        true,
      )
      .demandCommand(
        1,
        'Give a cache command: stats, show ORIGIN, export, prune --older-than DAYS or merge FILE... -o OUT',
      )
      .example([
        ['$0 cache stats --cache crawl.sqlite', ''],
        ['$0 cache show example.com --json', ''],
        ['$0 cache prune --older-than 30', ''],
        ['$0 cache merge a.sqlite b.sqlite -o all.sqlite', ''],
      ]),
  handler: () => {},
};
