/** What the form tests share: the three-question prompt of issue #15, and waiting for what a message shows. */
import { CHANNEL, type World } from "./harness.ts";

/** Three questions, the second a multi-select: the prompt of the "done when". */
export const RELEASE = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Where should the release go?",
      options: [
        { label: "Staging (Recommended)", description: "Safe: reversible" },
        { label: "Production", description: "Customers get it at once" },
      ],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU" }, { label: "US" }, { label: "APAC" }],
    },
    {
      id: "window",
      header: "Window",
      question: "When?",
      options: [{ label: "Now" }, { label: "Tonight" }],
    },
  ],
};

/** Waits until the message, rendered as text, contains every one of `parts`. */
export function waitForRender(w: World, ts: string, ...parts: string[]): Promise<string> {
  return w.slack.waitUntil(() => {
    const shown = w.slack.render(CHANNEL, ts);
    return parts.every((part) => shown.includes(part)) ? shown : undefined;
  });
}
