export function makeOriginWorkload(options: {
  dir: string;
  rows: number;
  origins: number;
  robotsShare?: number;
}): Promise<{ input: string; robots: string }>;
