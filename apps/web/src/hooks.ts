import type { PublicQuestion } from "@ask-user/core";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { PanelStrings } from "./i18n.ts";

/** The tab's title counts the pending questions: `(2) ask-user`, plain `ask-user` with none. */
export function usePendingTitle(strings: PanelStrings, pending: number): void {
  useEffect(() => {
    document.title = pending > 0 ? strings.web.pendingTitle(pending) : strings.web.title;
  }, [strings, pending]);
}

export type NotifyPermission = NotificationPermission | "unsupported";

export interface Notifications {
  permission: NotifyPermission;
  /** Asks the browser for permission: call it from a user gesture only (the Notify me button). */
  request(): void;
  /** A notification for a new pending question (once per question; nothing without permission). */
  notify(question: PublicQuestion): void;
}

/**
 * Browser notifications of new questions. Permission is asked only when the reader presses Notify me,
 * never on load; clicking a notification focuses the tab and opens that question (`onOpen`).
 */
export function useNotifications(strings: PanelStrings, onOpen: (id: string) => void): Notifications {
  const supported = typeof Notification !== "undefined";
  const [permission, setPermission] = useState<NotifyPermission>(
    supported ? Notification.permission : "unsupported",
  );
  const shown = useRef(new Set<string>());
  const open = useRef(onOpen);
  open.current = onOpen;

  const request = useCallback(() => {
    if (!supported) return;
    void Notification.requestPermission().then(setPermission, () => setPermission(Notification.permission));
  }, [supported]);

  const notify = useCallback(
    (question: PublicQuestion) => {
      if (!supported || Notification.permission !== "granted" || question.status !== "pending") return;
      if (shown.current.has(question.id) || shown.current.size > 10_000) return;
      shown.current.add(question.id);
      const first = question.prompt.questions[0];
      const notification = new Notification(
        strings.web.newQuestion(question.prompt.questions.map((q) => q.header).join(", ")),
        { body: first?.question ?? "", tag: question.id },
      );
      notification.onclick = () => {
        window.focus();
        open.current(question.id);
        notification.close();
      };
    },
    [supported, strings],
  );
  return { permission, request, notify };
}
