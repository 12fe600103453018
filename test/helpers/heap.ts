import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Test-only: a full GC on demand, so retained sizes can be compared.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes of V8 heap in use after two full collections. */
export function usedAfterGc(): number {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
}
