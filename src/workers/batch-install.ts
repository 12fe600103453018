import type { BatchRows } from './batch-rows.js';
import type { BatchScan } from './batch-scan.js';
import type { OriginStore } from './origin-store.js';
import type { PolicyInstaller } from './policy-installer.js';
import type { PolicyRequest, WirePolicy } from './protocol.js';

/**
 * Installs the policies of the origins a batch's first pass lacked (one request for all of them), then
 * gives each row that waited for one its entry: as of a time, the version in force at the row's time.
 */
export async function installNeeded(
  installer: PolicyInstaller,
  store: OriginStore,
  rows: BatchRows,
  scan: BatchScan,
  stamp: number,
  fetchPolicies: (req: PolicyRequest) => Promise<WirePolicy[]>,
): Promise<void> {
  const { need, asOf } = scan;
  await installer.ensureAll(need, stamp, fetchPolicies);
  for (let i = 0; i < rows.count; i++) {
    const key = rows.pendingKeys[i];
    if (key === null || key === undefined) continue;
    const e = need.get(key)!.entry!;
    if (asOf === null) rows.entries[i] = e;
    else {
      // Installed for this batch: its rule sets are protected until it ends.
      rows.entries[i] = asOf.entryAt(store, e, rows.times[i]!, stamp)!;
    }
  }
}
