/** Retry-After in milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export const parseRetryAfterMs = (
  header: string | null | undefined,
  now: number = Date.now(),
): number | null => {
  if (header === null || header === undefined || header.trim() === '') return null;
  const secondsValue = Number(header);
  if (Number.isFinite(secondsValue)) return Math.max(0, secondsValue * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
};
