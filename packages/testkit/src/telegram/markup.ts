/** `reply_markup` validation: the limits grammY does not check (callback_data bytes, placeholders). */
import {
  CALLBACK_DATA_MAX_BYTES,
  CALLBACK_DATA_MIN_BYTES,
  INPUT_FIELD_PLACEHOLDER_MAX_CHARS,
  INPUT_FIELD_PLACEHOLDER_MIN_CHARS,
} from "./limits.ts";
import { badRequest, charCount, isObject, optJson, type Params } from "./params.ts";
import type { TgInlineButton, TgInlineKeyboard, TgReplyMarkup } from "./types.ts";

const BUTTON_ACTIONS = [
  "callback_data",
  "url",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
];

function checkPlaceholder(markup: Record<string, unknown>): void {
  const placeholder = markup.input_field_placeholder;
  if (placeholder === undefined) return;
  const length = typeof placeholder === "string" ? charCount(placeholder) : -1;
  if (length < INPUT_FIELD_PLACEHOLDER_MIN_CHARS || length > INPUT_FIELD_PLACEHOLDER_MAX_CHARS) {
    // Wording is the fake's own; the limit is the Bot API's (1-64 characters).
    throw badRequest(
      `input_field_placeholder must be ${INPUT_FIELD_PLACEHOLDER_MIN_CHARS}-${INPUT_FIELD_PLACEHOLDER_MAX_CHARS} characters`,
    );
  }
}

function checkButton(button: unknown): TgInlineButton {
  if (!isObject(button) || typeof button.text !== "string") {
    throw badRequest('can\'t parse inline keyboard button: Field "text" must be of type String');
  }
  if (!BUTTON_ACTIONS.some((action) => button[action] !== undefined)) {
    throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
  }
  if (button.callback_data !== undefined) {
    const bytes =
      typeof button.callback_data === "string" ? Buffer.byteLength(button.callback_data, "utf8") : -1;
    if (bytes < CALLBACK_DATA_MIN_BYTES || bytes > CALLBACK_DATA_MAX_BYTES)
      throw badRequest("BUTTON_DATA_INVALID");
  }
  if (button.url !== undefined) {
    if (typeof button.url !== "string" || !URL.canParse(button.url)) throw badRequest("BUTTON_URL_INVALID");
  }
  return { ...button, text: button.text };
}

/** Validates an `InlineKeyboardMarkup`. */
export function inlineKeyboard(markup: Record<string, unknown>): TgInlineKeyboard {
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows))
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array');
  return {
    inline_keyboard: rows.map((row) => {
      if (!Array.isArray(row)) {
        throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
      }
      return row.map(checkButton);
    }),
  };
}

/** Reads and validates `reply_markup` of a sent message (any of the four markup kinds). */
export function replyMarkup(params: Params): TgReplyMarkup | undefined {
  const markup = optJson(params, "reply_markup", "reply keyboard markup JSON object");
  if (markup === undefined) return undefined;
  if (!isObject(markup)) throw badRequest("can't parse reply keyboard markup JSON object");
  if (markup.inline_keyboard !== undefined) return inlineKeyboard(markup);
  if (markup.force_reply !== undefined) {
    if (markup.force_reply !== true) throw badRequest("can't parse reply keyboard markup JSON object");
    checkPlaceholder(markup);
    return markup;
  }
  if (markup.keyboard !== undefined) {
    if (!Array.isArray(markup.keyboard) || !markup.keyboard.every(Array.isArray)) {
      throw badRequest('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
    }
    checkPlaceholder(markup);
    return markup;
  }
  if (markup.remove_keyboard === true) return markup;
  throw badRequest("can't parse reply keyboard markup JSON object");
}

/** Reads `reply_markup` of an edit: only an inline keyboard is allowed; omitted means "no keyboard". */
export function editMarkup(params: Params): TgInlineKeyboard | undefined {
  const markup = optJson(params, "reply_markup", "reply keyboard markup JSON object");
  if (markup === undefined) return undefined;
  if (!isObject(markup) || markup.inline_keyboard === undefined) throw badRequest("inline keyboard expected");
  return inlineKeyboard(markup);
}

/** The inline keyboard of a markup, if it is one. */
export function asInlineKeyboard(markup: TgReplyMarkup | undefined): TgInlineKeyboard | undefined {
  return markup !== undefined && Array.isArray(markup.inline_keyboard)
    ? (markup as TgInlineKeyboard)
    : undefined;
}
