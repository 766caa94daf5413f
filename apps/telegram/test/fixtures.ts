import { rolloutInput } from "@ask-user/core/testing";
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

/** Three questions, one of them multi-select: a form on every platform (core's sample). */
export const ROLLOUT = rolloutInput;
