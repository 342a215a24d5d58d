// A moment as the views and picks say it. Pure: no vscode.

/** "12:03:04 UTC" of today, or the date and time ("2026-11-26 10:12 UTC"); text that is not a time as it is. */
export function when(at: string | number): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  const today = new Date().toISOString().slice(0, 10);
  const s = d.toISOString();
  return s.slice(0, 10) === today ? `${s.slice(11, 19)} UTC` : `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`;
}
