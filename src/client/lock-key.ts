/**
 * Go's `fmt.Sprintf("%x", int64)` for a lease ID, as concurrency.Mutex builds its key: lower-case hex,
 * with a minus sign for negative IDs (unlike the trace, which prints the unsigned 64-bit form).
 */
export function goHex(id: bigint): string {
  return id < 0n ? `-${(-id).toString(16)}` : id.toString(16);
}

/** The mutex's key for a session lease: `pfx + "/" + %x(lease)`. */
export const lockKey = (pfx: string, lease: bigint): string => `${pfx}/${goHex(lease)}`;
