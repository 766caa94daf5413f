import type { PublicQuestion } from "@ask-user/core";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { PanelStrings } from "./i18n.ts";
import { questionOfHash, registerServiceWorker, serviceWorkerSupported, subscribePush } from "./push.ts";

/** The tab's title counts the pending questions: `(2) ask-user`, plain `ask-user` with none. */
export function usePendingTitle(strings: PanelStrings, pending: number): void {
  useEffect(() => {
    document.title = pending > 0 ? strings.web.pendingTitle(pending) : strings.web.title;
  }, [strings, pending]);
}

/**
 * What the browser allows: its notification permission, `"push"` once it is granted and the gateway
 * pushes to this browser too (notified with the tab closed), or `"unsupported"`.
 */
export type NotifyPermission = NotificationPermission | "push" | "unsupported";

export interface Notifications {
  permission: NotifyPermission;
  /** Asks the browser for permission, then subscribes to pushes: call it from a user gesture only (Notify me). */
  request(): void;
  /** A notification for a new pending question (once per question; nothing without permission). */
  notify(question: PublicQuestion): void;
}

/**
 * Browser notifications of new questions. Permission is asked only when the reader presses Notify me,
 * never on load; with it, the browser also subscribes to the gateway's Web Push (when it can: see
 * push.ts), so new questions are notified with the tab closed. Clicking a notification — this tab's, or
 * a push's through the service worker, or opening `/#q=<id>` — opens that question (`onOpen`).
 * The service worker (offline shell, pushes) is registered here, once the page is up.
 */
export function useNotifications(strings: PanelStrings, onOpen: (id: string) => void): Notifications {
  const supported = typeof Notification !== "undefined";
  const [permission, setPermission] = useState<NotifyPermission>(
    supported ? Notification.permission : "unsupported",
  );
  const shown = useRef(new Set<string>());
  const open = useRef(onOpen);
  open.current = onOpen;

  // The service worker, its "open this question" messages, and `/#q=<id>` addresses.
  useEffect(() => {
    void registerServiceWorker();
    const openHash = () => {
      const id = questionOfHash(window.location.hash);
      if (!id) return;
      open.current(id);
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    };
    const onMessage = (event: MessageEvent<{ type?: string; id?: unknown }>) => {
      if (event.data?.type === "open-question" && typeof event.data.id === "string") {
        window.focus();
        open.current(event.data.id);
      }
    };
    openHash();
    window.addEventListener("hashchange", openHash);
    const worker = serviceWorkerSupported() ? navigator.serviceWorker : undefined;
    worker?.addEventListener("message", onMessage);
    return () => {
      window.removeEventListener("hashchange", openHash);
      worker?.removeEventListener("message", onMessage);
    };
  }, []);

  // Permission given on an earlier visit: the gateway hears of this browser's subscription again
  // (it may have restarted on a memory store; a key change replaces the subscription).
  useEffect(() => {
    if (!supported || Notification.permission !== "granted") return;
    let live = true;
    void subscribePush().then((outcome) => {
      if (live && outcome === "subscribed") setPermission("push");
    });
    return () => {
      live = false;
    };
  }, [supported]);

  const request = useCallback(() => {
    if (!supported) return;
    void Notification.requestPermission()
      .then(async (answer) => {
        setPermission(answer);
        if (answer === "granted" && (await subscribePush()) === "subscribed") setPermission("push");
      })
      .catch(() => setPermission(Notification.permission));
  }, [supported]);

  const notify = useCallback(
    (question: PublicQuestion) => {
      if (!supported || Notification.permission !== "granted" || question.status !== "pending") return;
      if (shown.current.has(question.id) || shown.current.size > 10_000) return;
      shown.current.add(question.id);
      const first = question.prompt.questions[0];
      const title = strings.web.newQuestion(question.prompt.questions.map((q) => q.header).join(", "));
      // Tagged with the question's id, like the push of it: the browser shows one of the two.
      const options = { body: first?.question ?? "", tag: question.id };
      let notification: Notification;
      try {
        notification = new Notification(title, options);
      } catch {
        // Android's Chrome has no page notifications: the service worker shows it (its click opens it).
        void navigator.serviceWorker?.ready.then((registration) =>
          registration.showNotification(title, {
            ...options,
            data: { id: question.id, url: `/#q=${question.id}` },
          }),
        );
        return;
      }
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
