import { useState } from "preact/hooks";
import type { PanelStrings } from "./i18n.ts";

interface TokenFormProps {
  strings: PanelStrings;
  /** Why the form shows: the last token was refused. */
  error: string | undefined;
  busy: boolean;
  onToken(token: string): void;
}

/** Asks for the gateway's token once; the page keeps it for this tab. */
export function TokenForm({ strings, error, busy, onToken }: TokenFormProps) {
  const { web } = strings;
  const [value, setValue] = useState("");
  return (
    <main class="token-page">
      <form
        class="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim() !== "") onToken(value.trim());
        }}
      >
        <h1>{web.title}</h1>
        <p>{web.tokenNeeded}</p>
        <label for="token">{web.token}</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "token-error" : "token-storage"}
          // biome-ignore lint/a11y/noAutofocus: the token is the only thing this page asks for
          autoFocus
          onInput={(event) => setValue((event.currentTarget as HTMLInputElement).value)}
        />
        {error ? (
          <p id="token-error" class="token-error" role="alert">
            {error}
          </p>
        ) : null}
        <p id="token-storage" class="token-note">
          {web.tokenStorage}
        </p>
        <button type="submit" class="button button--primary" disabled={busy || value.trim() === ""}>
          {web.tokenContinue}
        </button>
      </form>
    </main>
  );
}
