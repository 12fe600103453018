// Loaded with `node --import` into a measured process: at exit it writes the process's own resource
// usage (every thread's CPU, peak RSS) as JSON to $ROBOTS_AUDIT_USAGE_FILE. See bench/measured-run.mjs.
import { writeFileSync } from 'node:fs';

const file = process.env.ROBOTS_AUDIT_USAGE_FILE;
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(process.resourceUsage())));
