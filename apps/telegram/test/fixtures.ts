/** The prompts the tests ask. */

/** One single-select question with descriptions: gets buttons. */
export const DEPLOY = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [
        { label: "Staging (Recommended)", description: "Safe, resets nightly" },
        { label: "Production", description: "Live traffic" },
        { label: "Canary" },
      ],
    },
  ],
};

/** Three questions, one of them multi-select: a form. */
export const ROLLOUT = {
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
