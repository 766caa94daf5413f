import type { Answers, PublicQuestion } from "@ask-user/core";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { errorMessage, GatewayApi, storeToken } from "./api.ts";
import { History, type HistoryFilter, HistoryToolbar } from "./history.tsx";
import { useHistoryScroll } from "./history-scroll.ts";
import { useNotifications, usePendingTitle } from "./hooks.ts";
import type { PanelStrings } from "./i18n.ts";
import { Panel } from "./panel.tsx";
import { byCreation, isOpen, merge, type QuestionMap } from "./questions.ts";
import { useSharedDraft } from "./shared-draft.ts";
import { statusLine } from "./summary.ts";
import { formatCountdown, useNow } from "./time.ts";
import { TokenForm } from "./token-form.tsx";
import { type Connection, Topbar } from "./topbar.tsx";
import { WaitingBar } from "./waiting-bar.tsx";

type AuthState = "checking" | "needed" | "ok";

const EVENT_TYPES = ["question.requested", "question.updated", "question.resolved"] as const;
const RETRY_MS = 2_000;

interface AppProps {
  strings: PanelStrings;
  token: string | undefined;
  storage: Storage;
}

/** The page: history, the docked panel for the oldest pending prompt, live over SSE, behind the token. */
export function App({ strings, token, storage }: AppProps) {
  const { web } = strings;
  const api = useMemo(() => new GatewayApi(token), [token]);
  const [auth, setAuth] = useState<AuthState>("checking");
  const [authError, setAuthError] = useState<string | undefined>();
  const [questions, setQuestions] = useState<QuestionMap>(new Map());
  const [connection, setConnection] = useState<Connection>("connecting");
  const [clockOffset, setClockOffset] = useState(0);
  const [collapsed, setCollapsed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [panelError, setPanelError] = useState<string | undefined>();
  const [announcement, setAnnouncement] = useState("");
  const [selected, setSelected] = useState<string | undefined>();
  const [filter, setFilter] = useState<HistoryFilter>({ status: "all", text: "" });
  const notifications = useNotifications(strings, (id) => {
    setSelected(id);
    setCollapsed(false);
  });
  const notify = useRef(notifications.notify);
  notify.current = notifications.notify;

  /** Fetches the list; `false` when the token is missing or wrong (the token form shows). */
  const load = useCallback(async (): Promise<boolean> => {
    // Page through the list; each page shows as soon as it is here.
    let response = await api.list();
    for (let pages = 1; response.status === 200 && response.body?.nextCursor && pages < 1_000; pages++) {
      const list = response.body.questions;
      setQuestions((map) => merge(map, list));
      response = await api.list(response.body.nextCursor);
    }
    if (response.status === 401) {
      setAuthError(api.token ? web.tokenWrong : undefined);
      api.token = undefined;
      storeToken(storage, undefined);
      setAuth("needed");
      return false;
    }
    if (response.status !== 200 || !response.body) {
      throw new Error(errorMessage(response.body) ?? `HTTP ${response.status}`);
    }
    const list = response.body.questions;
    setClockOffset(response.clockOffsetMs);
    setQuestions((map) => merge(map, list));
    setAuth("ok");
    setAuthError(undefined);
    return true;
  }, [api, storage, web]);

  // First load; a gateway that cannot be reached is retried.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      load().catch(() => {
        setConnection("reconnecting");
        timer = setTimeout(attempt, RETRY_MS);
      });
    };
    attempt();
    return () => clearTimeout(timer);
  }, [load]);

  // Live updates. EventSource resumes with Last-Event-ID by itself; every (re)connect also refetches
  // the list, so nothing is missed even across a gateway restart.
  useEffect(() => {
    if (auth !== "ok") return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const refresh = () => {
      load().catch(() => setConnection("reconnecting"));
    };
    const connect = () => {
      if (stopped) return;
      const events = api.events();
      source = events;
      events.addEventListener("open", () => {
        setConnection("live");
        refresh();
      });
      for (const type of EVENT_TYPES) {
        events.addEventListener(type, (event) => {
          const question = (JSON.parse((event as MessageEvent<string>).data) as { question: PublicQuestion })
            .question;
          setQuestions((map) => merge(map, [question]));
          if (type === "question.requested") {
            notify.current(question);
            setAnnouncement(web.newQuestion(question.prompt.questions.map((q) => q.header).join(", ")));
          } else if (type === "question.resolved") {
            setAnnouncement(web.closedElsewhere(statusLine(strings, question, Date.now())));
          }
        });
      }
      events.addEventListener("reset", refresh);
      events.addEventListener("error", () => {
        setConnection("reconnecting");
        if (events.readyState !== EventSource.CLOSED) return; // the browser retries by itself
        // Refused (a 401 after a token change, a 503 while the gateway drains): check and start over.
        timer = setTimeout(() => {
          load()
            .then((ok) => {
              if (ok) connect();
            })
            .catch(() => connect());
        }, RETRY_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [auth, api, load, strings, web]);

  const now = useNow(1000, auth === "ok");
  const serverNow = now + clockOffset;
  const history = byCreation(questions);
  const pending = history.filter((question) => isOpen(question, serverNow));
  // The oldest pending prompt, unless the reader opened another (from its notification).
  const current = pending.find((question) => question.id === selected) ?? pending[0];
  usePendingTitle(strings, pending.length);
  // The prompt's one shared draft: shown from the record, each choice here staged into it.
  const shared = useSharedDraft(api, current, {
    onRecord: (record) => setQuestions((map) => merge(map, [record])),
    onError: (message) => setPanelError(message === undefined ? undefined : web.notStaged(message)),
    onStale: () => {
      load().catch(() => setConnection("reconnecting"));
    },
  });
  const draft = shared.draft;

  // A new current prompt starts clean; with nothing waiting the panel opens again next time.
  const currentId = current?.id;
  const lastId = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (lastId.current !== currentId) {
      setPanelError(undefined);
      setBusy(false);
    }
    lastId.current = currentId;
    if (!currentId) setCollapsed(false);
  }, [currentId]);

  const { scroller, onScroll } = useHistoryScroll(
    history.length,
    currentId,
    collapsed,
    `${filter.status}\n${filter.text}`,
  );

  async function resolve(question: PublicQuestion, action: () => ReturnType<GatewayApi["skip"]>) {
    setBusy(true);
    setPanelError(undefined);
    try {
      const response = await action();
      if (response.status === 200 && response.body) {
        const record = response.body;
        setQuestions((map) => merge(map, [record]));
      } else if (response.status === 401) {
        await load();
      } else {
        setPanelError(web.notSent(errorMessage(response.body) ?? `HTTP ${response.status}`));
        if (response.status === 409) await load();
      }
    } catch (error) {
      setPanelError(web.notSent((error as Error).message));
    } finally {
      if (lastId.current === question.id) setBusy(false);
    }
  }

  async function submitToken(value: string) {
    api.token = value;
    setBusy(true);
    try {
      if (await load()) storeToken(storage, value);
    } catch (error) {
      setAuthError((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (auth === "needed") {
    return <TokenForm strings={strings} error={authError} busy={busy} onToken={submitToken} />;
  }

  return (
    <div class="app">
      <Topbar
        strings={strings}
        connection={connection}
        notify={notifications.permission}
        onNotify={notifications.request}
      />
      <HistoryToolbar
        strings={strings}
        questions={history}
        serverNow={serverNow}
        filter={filter}
        onFilter={setFilter}
      />
      <main
        class="history-scroll"
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard (axe: scrollable-region-focusable); it is labelled
        tabIndex={0}
        aria-label={web.history}
        onScroll={onScroll}
      >
        <History
          strings={strings}
          questions={history}
          serverNow={serverNow}
          filter={filter}
          inPanel={current && !collapsed ? current.id : undefined}
        />
      </main>
      <footer class="dock">
        {current && draft && !collapsed ? (
          <Panel
            key={current.id}
            strings={strings}
            question={current}
            draft={draft}
            serverNow={serverNow}
            queued={pending.length - 1}
            busy={busy}
            error={panelError}
            onDraft={shared.update}
            onSubmit={(answers: Answers) => void resolve(current, () => api.answer(current.id, answers))}
            onSkip={() => void resolve(current, () => api.skip(current.id))}
            onCollapse={() => setCollapsed(true)}
          />
        ) : null}
        {current && collapsed ? (
          <WaitingBar
            strings={strings}
            count={pending.length}
            header={current.prompt.questions[0]?.header ?? ""}
            left={formatCountdown(current.expiresAt - serverNow)}
            onOpen={() => setCollapsed(false)}
          />
        ) : null}
        {current && !collapsed ? null : (
          <div class="composer">
            <span class="composer-text">
              {current ? web.collapsedHint : connection === "reconnecting" ? web.idleOffline : web.idle}
            </span>
          </div>
        )}
      </footer>
      <div class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}
