export function aliasOf(i: number, aliases: number): number;
export function aliasRow(line: string, k: number): string;
export function makeManyHostsWorkload(options: {
  source: string;
  dir: string;
  aliases: number;
}): Promise<{ input: string; robots: string; rows: number; origins: number; files: number }>;
