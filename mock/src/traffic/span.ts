// A time span in words, shared by the mock's security summary (its first sentence) and the client's Security Events view (the
// zone's tooltip), which imports this file alone: it imports nothing, so the activation bundle takes no more of the mock.

/** A time span as a sentence says it: "from 10:12:30 to 10:20:25 UTC on 2026-11-27", the date once when both ends share it (the
 * ISO stamps stay in the summary's since/until for programs). */
export function spanWords(since: number, until: number): string {
  const a = new Date(since).toISOString(), b = new Date(until).toISOString();
  const day = (iso: string) => iso.slice(0, 10), time = (iso: string) => iso.slice(11, 19);
  return day(a) === day(b) ? `from ${time(a)} to ${time(b)} UTC on ${day(a)}` : `from ${day(a)} ${time(a)} to ${day(b)} ${time(b)} UTC`;
}
