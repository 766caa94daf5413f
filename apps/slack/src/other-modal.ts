/**
 * The Other… modal and its submissions. The answer decides between closing and a field error, so the
 * broker gets up to 2 s before the ack; later, the modal closes and a refusal is told privately.
 */
import {
  decodeAction,
  messagesFor,
  type QuestionRecord,
  TIMED_OUT,
  truncateGraphemes,
  within,
} from "@ask-user/core/channel";
import type { types, ViewResponseAction, ViewSubmitAction } from "@slack/bolt";
import { type InboundDeps, isRefusal } from "./inbound-context.ts";
import { submissionKey } from "./ingress/dedupe.ts";
import {
  ACK_BUDGET_MS,
  MODAL_TITLE_MAX_CHARS,
  PLAIN_TEXT_INPUT_MAX_CHARS,
  SUBMISSION_LOOKUP_BUDGET_MS,
} from "./limits.ts";
import { tellPrivately } from "./notices.ts";
import { headline, slackView } from "./render/prompt.ts";

/** The block and action id of the free-text input in the Other… modal. */
export const ANSWER_BLOCK_ID = "ask_user_answer";
export const ANSWER_ACTION_ID = "ask_user_answer";

/** What the Other… modal carries back in `private_metadata`: the conversation (`c`) it was tapped in. */
export interface ModalMetadata {
  c: string;
}

/** The question and one input, filled with the draft's own answer; `callback_id` the Other… payload. */
export function renderOtherModal(
  record: QuestionRecord,
  questionIndex: number,
  conversation: string,
  locale: string,
): types.ModalView {
  // The view as the prompt shows it: its Other… payload is the one tapped.
  const question = slackView(record, { buttons: true }).questions[questionIndex];
  if (!question) throw new TypeError("renderOtherModal: no such question");
  const { number: _shownUnnumbered, ...asked } = question;
  const m = messagesFor(locale);
  const initial = question.own?.slice(0, PLAIN_TEXT_INPUT_MAX_CHARS);
  return {
    type: "modal",
    callback_id: question.other.action,
    private_metadata: JSON.stringify({ c: conversation } satisfies ModalMetadata),
    title: { type: "plain_text", text: truncateGraphemes(m.other, MODAL_TITLE_MAX_CHARS), emoji: true },
    submit: { type: "plain_text", text: truncateGraphemes(m.send, MODAL_TITLE_MAX_CHARS) },
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: headline(asked) } },
      {
        type: "input",
        block_id: ANSWER_BLOCK_ID,
        label: { type: "plain_text", text: m.yourAnswer, emoji: true },
        element: {
          type: "plain_text_input",
          action_id: ANSWER_ACTION_ID,
          multiline: true,
          max_length: PLAIN_TEXT_INPUT_MAX_CHARS,
          ...(initial === undefined ? {} : { initial_value: initial }),
        },
      },
    ],
  };
}

/** The conversation the modal was opened from (its `private_metadata`), if it is ours. */
function conversationOfModal(privateMetadata: string): string | undefined {
  try {
    const metadata = JSON.parse(privateMetadata) as Partial<ModalMetadata> | null;
    return typeof metadata?.c === "string" && metadata.c !== "" ? metadata.c : undefined;
  } catch {
    return undefined;
  }
}

/** The action data of a submission when it is of our Other… modal (its `callback_id`), else `undefined`. */
export function ourSubmission(body: ViewSubmitAction): string | undefined {
  const data = body.view.callback_id;
  return decodeAction(data)?.action.kind === "other" ? data : undefined;
}

/** The work of one submission: handled once, then the broker. `undefined`: nothing to say (a copy). */
async function submit(deps: InboundDeps, body: ViewSubmitAction, data: string) {
  const key = submissionKey(body);
  if (key !== undefined && !(await deps.once.take(key))) return undefined;
  const conversation = conversationOfModal(body.view.private_metadata);
  const userId = body.user.id;
  if (!conversation || !userId) return undefined;
  const text = body.view.state.values[ANSWER_BLOCK_ID]?.[ANSWER_ACTION_ID]?.value ?? "";
  // Usually cached since the Other… tap; keep the ack budget for the broker.
  const who = await deps.people.lookup(userId, SUBMISSION_LOOKUP_BUDGET_MS);
  const event = { channel: deps.name, conversation, userId, data, text, ...who };
  return { outcome: await deps.broker.handleAction(event), conversation };
}

/** Answered or staged → the modal closes; refused or empty → a field error; late → closes, a refusal told privately. */
export async function onSubmission(
  deps: InboundDeps,
  body: ViewSubmitAction,
  data: string,
  ack: (response?: ViewResponseAction) => Promise<void>,
): Promise<void> {
  const work = submit(deps, body, data);
  const first = await within(work, ACK_BUDGET_MS);
  if (first !== TIMED_OUT && first && isRefusal(first.outcome)) {
    const error = first.outcome.text.slice(0, 2000);
    await ack({ response_action: "errors", errors: { [ANSWER_BLOCK_ID]: error } });
    return;
  }
  await ack();
  if (first !== TIMED_OUT) return;
  const late = await work;
  if (!late || !isRefusal(late.outcome)) return;
  const { channel, threadTs } = await deps.where(late.conversation);
  await tellPrivately(deps, { channel, user: body.user.id, threadTs }, late.outcome.text);
}
