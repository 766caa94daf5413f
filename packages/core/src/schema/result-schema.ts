import { z } from "zod";

/** Why a question ended without answers (SPEC §3). */
const NO_ANSWER_REASONS = ["expired", "skipped", "cancelled", "undeliverable"] as const;

/**
 * The result the agent gets (SPEC §3), as a zod schema: the source of {@link AskUserResult} and of the
 * MCP tool's `outputSchema` (`z.toJSONSchema(askUserResultSchema)`).
 *
 * @example
 * const result = askUserResultSchema.parse(JSON.parse(body)); // a client checking what it was sent
 */
export const askUserResultSchema = z
  .discriminatedUnion("status", [
    z.strictObject({
      status: z.literal("answered"),
      answers: z.strictObject({
        answers: z
          .record(z.string(), z.array(z.string()))
          .describe("Answer values keyed by question id: option labels as written, then free text."),
      }),
    }),
    z.strictObject({
      status: z.literal("no_answer"),
      reason: z
        .enum(NO_ANSWER_REASONS)
        .describe(
          "expired: nobody answered in time; skipped: the user declined; cancelled: the run was aborted; undeliverable: the question could not be delivered.",
        ),
    }),
  ])
  .describe("The outcome of ask_user: the answers, or why there are none.");

/** The result the agent gets (SPEC §3): the output of {@link askUserResultSchema}. */
export type AskUserResult = z.output<typeof askUserResultSchema>;
