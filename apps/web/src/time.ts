import { useEffect, useState } from "preact/hooks";

/** `4:05`, `14:32`, `1:02:03`: the time left, rounded up to the second. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The time of day in the reader's own time zone, e.g. `14:05` (with the date when it is not today). */
export function formatClock(epochMs: number, locale: string, nowMs: number): string {
  const sameDay = new Date(epochMs).toDateString() === new Date(nowMs).toDateString();
  const key = `${locale}:${sameDay}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      hour: "numeric",
      minute: "2-digit",
      ...(sameDay ? {} : { day: "numeric", month: "short" }),
    });
    formats.set(key, format);
  }
  return format.format(epochMs);
}

/** The current time, re-rendering every `intervalMs` while `active`. */
export function useNow(intervalMs: number, active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}
