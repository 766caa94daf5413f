import type { QuestionRecord } from "../model/types.ts";

let counter = 0;

/**
 * A valid pending record for store tests, with every optional field left out unless overridden.
 *
 * @example
 * await store.create(sampleRecord({ runId: "run-1" }));
 */
export function sampleRecord(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  counter++;
  const id =
    overrides.id ?? `q-${counter.toString().padStart(6, "0")}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    id,
    version: 1,
    prompt: {
      questions: [
        {
          id: "deploy_target",
          header: "Deploy",
          question: "Where should I deploy?",
          options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
          multiSelect: false,
        },
      ],
      timeoutSeconds: 900,
    },
    target: { channel: "telegram", conversation: "100" },
    answerers: { kind: "creator" },
    locale: "en",
    createdAt: 1_000_000 + counter,
    expiresAt: 1_000_000 + counter + 900_000,
    status: "pending",
    tokens: [`tok${counter.toString().padStart(13, "0")}`],
    deliveries: [],
    ...overrides,
  };
}

/**
 * A three-question `ask_user` input with a multi-select question — a native form on every platform — for
 * tests and screenshots.
 */
export const rolloutInput = {
  questions: [
    {
      id: "env",
      header: "Env",
      question: "Which environment gets the release?",
      options: [
        { label: "Staging (Recommended)", description: "Safe first step" },
        { label: "Production", description: "Goes live at once" },
      ],
    },
    {
      id: "regions",
      header: "Regions",
      question: "Which regions?",
      multiSelect: true,
      options: [{ label: "EU (Recommended)" }, { label: "US" }, { label: "Asia" }],
    },
    {
      id: "window",
      header: "Window",
      question: "When?",
      options: [{ label: "Tonight (Recommended)" }, { label: "Weekend" }],
    },
  ],
};
