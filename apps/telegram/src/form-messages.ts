/**
 * The form messages this process shows, and their edits. Which question each message shows is kept in
 * memory by message (a restart forgets it: the message then shows the first question without an
 * answer). Edits of one message run one at a time, always show the newest record seen for it, are not
 * sent again when the message already shows the same, and never follow its summary. Bounded.
 */
import { promptAudience, type QuestionRecord } from "@ask-user/core";
import type { Api } from "grammy";
import type { TelegramConversation } from "./conversation.ts";
import { isSettledEditError, toChannelError } from "./errors.ts";
import { type FormContext, firstOpenQuestion, renderForm } from "./form.ts";
import { FORM_MESSAGES_REMEMBERED } from "./limits.ts";
import type { RenderedMessage } from "./render.ts";

/** A prompt message: its chat (and topic) and id. */
export interface MessagePlace {
  chat: TelegramConversation;
  messageId: number;
}

/** See the module comment. */
export interface FormMessages {
  /** A form was just sent to `place`, rendered as `rendered`. */
  sent(place: MessagePlace, record: QuestionRecord, rendered: RenderedMessage): void;
  /** From now on the message shows question `index` (a tap chose it: Back / Next, a pick, Send with gaps). */
  view(place: MessagePlace, index: number): void;
  /**
   * A tap on the message is with the broker until the returned function is called; `show` waits for it,
   * so a refresh shows the question that tap chose.
   */
  tapping(place: MessagePlace): () => void;
  /** Edits the message to show `record` (or a newer one seen) at its question. Throws a `ChannelError`. */
  show(place: MessagePlace, record: QuestionRecord): Promise<void>;
  /** The question ended: forms are no longer shown there; `work` (the summary edit) runs after the edits in flight. */
  end<T>(place: MessagePlace, work: () => Promise<T>): Promise<T>;
}

/** Sets `key` in a map bounded to the most recent {@link FORM_MESSAGES_REMEMBERED} entries. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= FORM_MESSAGES_REMEMBERED) break;
    map.delete(oldest);
  }
}

/** How a form is shown in a chat: in the record's locale, "For @alice" and the reply hint in groups. */
export function formContext(record: QuestionRecord, chat: TelegramConversation): FormContext {
  const forName = promptAudience(record, chat.chatId > 0);
  return {
    locale: record.locale,
    replyToMessage: chat.chatId < 0,
    ...(forName === undefined ? {} : { forName }),
  };
}

function keyOf(place: MessagePlace): string {
  return `${place.chat.chatId}:${place.messageId}`;
}

function sameness(rendered: RenderedMessage): string {
  return JSON.stringify([rendered.html, rendered.replyMarkup]);
}

/** Creates the form state of one channel; its edits go through `api`. */
export function createFormMessages(api: Api): FormMessages {
  const views = new Map<string, number>();
  const shown = new Map<string, string>();
  const records = new Map<string, QuestionRecord>();
  const ended = new Map<string, true>();
  const queues = new Map<string, Promise<unknown>>();
  const taps = new Map<string, Set<Promise<void>>>();

  function serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (queues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return next;
  }

  /** The newer of two records of one question (by version). */
  function newest(key: string, record: QuestionRecord): QuestionRecord {
    const known = records.get(key);
    const latest = known && known.id === record.id && known.version > record.version ? known : record;
    remember(records, key, latest);
    return latest;
  }

  return {
    sent(place, record, rendered) {
      const key = keyOf(place);
      remember(records, key, record);
      remember(shown, key, sameness(rendered));
    },
    view(place, index) {
      remember(views, keyOf(place), index);
    },
    tapping(place) {
      const key = keyOf(place);
      let done: () => void = () => undefined;
      const tap = new Promise<void>((resolve) => {
        done = resolve;
      });
      const set = taps.get(key) ?? new Set();
      set.add(tap);
      taps.set(key, set);
      return () => {
        done();
        set.delete(tap);
        if (set.size === 0 && taps.get(key) === set) taps.delete(key);
      };
    },
    async show(place, record) {
      const key = keyOf(place);
      await Promise.all([...(taps.get(key) ?? [])]);
      await serial(key, async () => {
        if (ended.has(key)) return;
        const latest = newest(key, record);
        if (latest.status !== "pending") return;
        const rendered = renderForm(
          latest,
          views.get(key) ?? firstOpenQuestion(latest),
          formContext(latest, place.chat),
        );
        const same = sameness(rendered);
        if (shown.get(key) === same) return;
        try {
          await api.editMessageText(place.chat.chatId, place.messageId, rendered.html, {
            parse_mode: "HTML",
            link_preview_options: { is_disabled: true },
            ...(rendered.replyMarkup === undefined ? {} : { reply_markup: rendered.replyMarkup }),
          });
        } catch (error) {
          if (!isSettledEditError(error)) throw toChannelError(error, "editMessageText");
        }
        remember(shown, key, same);
      });
    },
    end(place, work) {
      const key = keyOf(place);
      remember(ended, key, true);
      return serial(key, work);
    },
  };
}
