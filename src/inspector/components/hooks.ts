import { useEffect, useState, useSyncExternalStore } from "react";
import type { Slice } from "../state/slice.ts";

/**
 * The current snapshot of a state slice; re-renders when it changes. React subscribes
 * through the slice's observable and removes the observer when the component unmounts or the
 * slice changes.
 */
export function useSlice<T extends object>(slice: Slice<T>): T {
  return useSyncExternalStore(slice.subscribe, slice.getSnapshot, slice.getSnapshot);
}

/** Seconds since `startedAt` (ms), ticking every second until `endedAt` is set. */
export function useElapsed(startedAt: number, endedAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endedAt !== null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endedAt]);
  return Math.max(0, ((endedAt ?? now) - startedAt) / 1000);
}

/** `value`, once it has stopped changing for `ms` (search boxes). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** "12 s", "3 min 04 s". */
export function formatElapsed(seconds: number): string {
  const s = Math.floor(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}
