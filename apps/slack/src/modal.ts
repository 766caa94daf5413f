/** The Other… modal, pure: the question again and one text input; its submission is the free-text answer. */
import { encodeAction, messagesFor, type QuestionRecord, truncateGraphemes } from "@ask-user/core";
import type { types } from "@slack/bolt";
import {
  MODAL_BUTTON_MAX_CHARS,
  MODAL_TITLE_MAX_CHARS,
  PLAIN_TEXT_INPUT_MAX_CHARS,
  PRIVATE_METADATA_MAX_CHARS,
} from "./limits.ts";
import { headline } from "./render.ts";

/** The block and action id of the free-text input in the Other… modal. */
export const ANSWER_BLOCK_ID = "ask_user_answer";
export const ANSWER_ACTION_ID = "ask_user_answer";

/** What the Other… modal carries back in `private_metadata`: where the question was tapped. */
export interface ModalMetadata {
  /** The conversation (address) of the tap. */
  c: string;
}

/** The free text the draft holds for a question (a form's own answer so far), if any. */
function draftText(record: QuestionRecord, questionIndex: number): string | undefined {
  const question = record.prompt.questions[questionIndex];
  if (!question) return undefined;
  const labels = new Set(question.options.map((o) => o.label));
  return (record.draft?.[question.id] ?? []).find((value) => !labels.has(value));
}

/**
 * The Other… modal: the question again, and one required multiline `plain_text_input` — in a form,
 * filled with the own answer the draft holds for that question. Its `callback_id` is the Other…
 * action data of that question, so the submission finds the question by its token.
 */
export function renderOtherModal(
  record: QuestionRecord,
  questionIndex: number,
  conversation: string,
  locale: string,
): types.ModalView {
  const question = record.prompt.questions[questionIndex];
  const token = record.tokens[questionIndex];
  if (!question || token === undefined) throw new TypeError("renderOtherModal: no such question");
  const m = messagesFor(locale);
  const metadata: ModalMetadata = { c: conversation };
  const privateMetadata = JSON.stringify(metadata);
  if (privateMetadata.length > PRIVATE_METADATA_MAX_CHARS) throw new RangeError("private_metadata too long");
  const initial = draftText(record, questionIndex);
  return {
    type: "modal",
    callback_id: encodeAction(token, { kind: "other" }),
    private_metadata: privateMetadata,
    title: { type: "plain_text", text: truncateGraphemes(m.other, MODAL_TITLE_MAX_CHARS), emoji: true },
    submit: { type: "plain_text", text: truncateGraphemes(m.send, MODAL_BUTTON_MAX_CHARS) },
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: headline(question) } },
      {
        type: "input",
        block_id: ANSWER_BLOCK_ID,
        label: { type: "plain_text", text: m.yourAnswer, emoji: true },
        element: {
          type: "plain_text_input",
          action_id: ANSWER_ACTION_ID,
          multiline: true,
          max_length: PLAIN_TEXT_INPUT_MAX_CHARS,
          ...(initial === undefined ? {} : { initial_value: initial.slice(0, PLAIN_TEXT_INPUT_MAX_CHARS) }),
        },
      },
    ],
  };
}
