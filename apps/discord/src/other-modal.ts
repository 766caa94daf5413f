/** The Other… modal: one paragraph input whose submission answers (or, in a form, stages) a question. Pure. */
import { messagesFor, type PromptQuestion } from "@ask-user/core/channel";
import { type APIModalInteractionResponseCallbackData, ComponentType, TextInputStyle } from "discord.js";
import {
  MODAL_TITLE_MAX_CHARS,
  TEXT_INPUT_LABEL_MAX_CHARS,
  TEXT_INPUT_MAX_CHARS,
  TEXT_INPUT_PLACEHOLDER_MAX_CHARS,
} from "./limits.ts";
import { shorten } from "./render/markdown.ts";

export const ANSWER_INPUT_ID = "answer";

/**
 * The Other… modal: the question's header as the title, its question as the label of one required
 * paragraph input (≤ 4000); a generic one when the question is not known yet (a slow store).
 */
export function renderOtherModal(
  customId: string,
  question: PromptQuestion | undefined,
  locale: string,
): APIModalInteractionResponseCallbackData {
  const m = messagesFor(locale);
  return {
    custom_id: customId,
    title: shorten(question?.header ?? m.yourAnswer, MODAL_TITLE_MAX_CHARS),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: ANSWER_INPUT_ID,
            style: TextInputStyle.Paragraph,
            label: shorten(question?.question ?? m.yourAnswer, TEXT_INPUT_LABEL_MAX_CHARS),
            placeholder: shorten(m.yourAnswer, TEXT_INPUT_PLACEHOLDER_MAX_CHARS),
            required: true,
            max_length: TEXT_INPUT_MAX_CHARS,
          },
        ],
      },
    ],
  };
}
