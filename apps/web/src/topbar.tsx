import type { NotifyPermission } from "./hooks.ts";
import type { PanelStrings } from "./i18n.ts";

export type Connection = "connecting" | "live" | "reconnecting";

interface TopbarProps {
  strings: PanelStrings;
  connection: Connection;
  notify: NotifyPermission;
  /** Asks for notification permission (a click on Notify me: a user gesture). */
  onNotify(): void;
}

/**
 * The page's top bar: the title, Notify me (or what the browser allows; while the gateway can't be
 * reached, that it can't — the installed app's shell opens without it), the live state.
 */
export function Topbar({ strings, connection, notify, onNotify }: TopbarProps) {
  const { web } = strings;
  const liveText =
    connection === "live" ? web.live : connection === "connecting" ? web.connecting : web.reconnecting;
  return (
    <header class="topbar">
      <h1>{web.title}</h1>
      <span class="topbar-end">
        {connection === "reconnecting" ? (
          <span class="notify-state">{web.unreachable}</span>
        ) : notify === "default" ? (
          <button type="button" class="button button--small" onClick={onNotify}>
            {web.notifyMe}
          </button>
        ) : notify === "granted" ? (
          <span class="notify-state">{web.notifyOn}</span>
        ) : notify === "push" ? (
          <span class="notify-state" title={web.notifyPush}>
            {web.notifyOn}
          </span>
        ) : notify === "denied" ? (
          <span class="notify-state">{web.notifyBlocked}</span>
        ) : null}
        <span class={`connection connection--${connection}`}>
          <span class="connection-dot" aria-hidden="true" />
          {liveText}
        </span>
      </span>
    </header>
  );
}
