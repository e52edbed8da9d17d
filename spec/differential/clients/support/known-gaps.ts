// Where lessor-sim serve's answers make a client print something other than what real etcd 3.4.23's
// answers make it print: each entry is one hunk of the line diff against the golden transcript. The serve
// tests assert the difference is exactly this list, so the list is the suite's honest account of what
// serve does not yet match; a fix in serve fails the test until its entry is removed here. Empty: every
// script's transcript matches etcd's.
import type { Hunk } from './transcripts.js';

export const KNOWN_GAPS: Readonly<Record<string, readonly Hunk[]>> = {};
