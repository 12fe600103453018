import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { RobotsAuditError } from '../core/errors.js';
import { type Decision, parseRobotsTxt } from '../core/index.js';
import { resolveOptions } from '../pipeline/options.js';
import { readFileCapped } from '../pipeline/policy/robots-dir-provider.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import { EXIT, reportFatal } from './exit.js';

interface CheckArgs {
  robots?: string;
  agent?: string | string[];
  urls?: string[];
  [key: string]: unknown;
}

/** TSV fields cannot hold tabs or line ends: escape them (and the backslash) the linear-TSV way. */
function tsvField(s: string): string {
  return /[\t\n\r\\]/.test(s)
    ? s.replace(/[\t\n\r\\]/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\\\'))
    : s;
}

/** One output line: url, allowed|disallowed, verdict, line, rule (tab-separated). */
export function formatCheckLine(url: string, d: Decision): string {
  return [url, d.allowed ? 'allowed' : 'disallowed', d.verdict, String(d.line), d.rule]
    .map(tsvField)
    .join('\t');
}

async function run(argv: CheckArgs): Promise<number> {
  try {
    const { agents } = resolveOptions({ agents: argv.agent }, 'check');
    if (agents.length !== 1) {
      throw new RobotsAuditError('ERR_USAGE', `check takes exactly one --agent, got ${agents.length}`, {
        option: 'agents',
      });
    }
    if (typeof argv.robots !== 'string') {
      throw new RobotsAuditError('ERR_USAGE', 'check takes exactly one --robots FILE', { option: 'robots' });
    }
    const file = argv.robots;
    let body: Buffer;
    try {
      // Capped: the file may be a device or pipe that never ends (/dev/zero).
      const read = readFileCapped(file);
      body = read.body;
      if (read.truncated) {
        process.stderr.write(
          `robots-audit: ${file} is larger than 500 KiB: only its first 500 KiB are parsed\n`,
        );
      }
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new RobotsAuditError('ERR_ROBOTS_FILE', `cannot read robots file ${file}: ${why}`, {
        path: file,
        cause: err,
      });
    }
    const compiled = parseRobotsTxt(body).compile(agents[0]!);
    let out = '';
    let anyDisallowed = false;
    for (const url of argv.urls ?? []) {
      const d = compiled.check(url);
      if (!d.allowed) anyDisallowed = true;
      out += `${formatCheckLine(url, d)}\n`;
    }
    process.stdout.write(out);
    return anyDisallowed ? EXIT.disallowed : EXIT.ok;
  } catch (err) {
    return reportFatal(err);
  }
}

const CHECK_OPTIONS: Record<string, YargsOption> = {
  robots: { type: 'string', demandOption: true, describe: 'The robots.txt file to check against' },
  agent: {
    type: 'string',
    demandOption: true,
    describe: "The crawler's product token (a /version is dropped)",
  },
};

export const checkCommand: CommandModule<object, CheckArgs> = {
  ...COMMAND_LINES.check,
  builder: (yargs: Argv) =>
    yargs
      .positional('urls', {
        type: 'string',
        array: true,
        describe: 'Absolute URLs (http/https, any port) or paths',
      })
      .options(CHECK_OPTIONS)
      .middleware(unknownOptionCheck([CHECK_OPTIONS], ['urls']), true)
      .example([
        ['$0 check --robots robots.txt --agent Googlebot /cart /search?q=1', ''],
        ['$0 check --robots robots.txt --agent Bingbot https://a.test/x', ''],
      ]) as Argv<CheckArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
