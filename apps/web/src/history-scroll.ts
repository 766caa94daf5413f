import type { GenericEventHandler } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** How the history scrolls: read it like a chat, newest card at the bottom and in sight. */
export interface HistoryScroll {
  scroller: { current: HTMLElement | null };
  onScroll: GenericEventHandler<HTMLElement>;
}

/**
 * The history reads like a chat: it stays scrolled to the newest card unless the reader scrolled up —
 * also while the sheet below grows (the next step, the review) — and shows the newest match again
 * whenever the filter or the search changes (`filterKey`), as on load. The card of the prompt in the
 * panel (`currentId`) is scrolled into sight above it.
 */
export function useHistoryScroll(
  cardCount: number,
  currentId: string | undefined,
  collapsed: boolean,
  filterKey: string,
): HistoryScroll {
  const scroller = useRef<HTMLElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current && cardCount > 0) element.scrollTop = element.scrollHeight;
  }, [cardCount]);

  // Another filter or search shows other cards: the newest of them is in sight, whatever was read before.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    atBottom.current = true;
  }, [filterKey]);

  // A sheet that grows shrinks the history: it stays at its newest card.
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!currentId) return;
    scroller.current
      ?.querySelector(`[data-question-id="${CSS.escape(currentId)}"]`)
      ?.scrollIntoView({ block: "nearest" });
  }, [currentId, collapsed]);

  const onScroll: GenericEventHandler<HTMLElement> = (event) => {
    const element = event.currentTarget;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  };
  return { scroller, onScroll };
}
