/** The one-question prompt every gateway bench asks, and the answer its clients give. */
export const input = {
  questions: [
    {
      id: "deploy_target",
      header: "Deploy",
      question: "Where should I deploy?",
      options: [{ label: "Staging (Recommended)", description: "Safe" }, { label: "Production" }],
    },
  ],
};

/** The body of `POST /v1/questions/:id/answer` for {@link input}. */
export const answer = { answers: { deploy_target: ["Production"] } };
