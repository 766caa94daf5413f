/** Checks message bodies and modals the way Discord does, collecting every problem as a 50035 form error. */
import { emptyMessage, type FieldPath, FormErrors } from "./errors.ts";
import {
  ACTION_ROWS_MAX,
  BUTTON_LABEL_MAX_CHARS,
  CUSTOM_ID_MAX_CHARS,
  CUSTOM_ID_MIN_CHARS,
  MESSAGE_CONTENT_MAX_CHARS,
  NONCE_MAX_CHARS,
  ROW_COMPONENTS_MAX,
  ROW_COMPONENTS_MIN,
} from "./limits.ts";
import type { DcComponent } from "./types.ts";
import { checkStringSelect, STRING_SELECT } from "./validate-select.ts";

/** `allowed_mentions` as Discord reads it. */
export interface AllowedMentions {
  parse?: string[];
  users?: string[];
  roles?: string[];
  replied_user?: boolean;
}

/** The message fields the fake understands. */
export interface MessageBody {
  content?: string;
  components?: DcComponent[];
  embeds?: unknown[];
  flags?: number;
  allowed_mentions?: AllowedMentions;
  message_reference?: { message_id: string; channel_id?: string; fail_if_not_exists?: boolean };
  /** Create only: an integer or a string of at most 25 characters. */
  nonce?: string | number;
  /** Create only: a repeated nonce returns the earlier message (see `NONCE_WINDOW_MS`). */
  enforce_nonce?: boolean;
}

export const BUTTON = 2;
export const ROW = 1;
export const TEXT_INPUT = 4;
export const LABEL = 18;
export const TEXT_DISPLAY = 10;
const LINK_STYLE = 5;
const PREMIUM_STYLE = 6;
const SELECTS = new Set([3, 5, 6, 7, 8]);
const PARSE_TYPES = new Set(["users", "roles", "everyone"]);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function customId(errors: FormErrors, path: FieldPath, value: unknown, seen: Set<string>): void {
  errors.length([...path, "custom_id"], value, CUSTOM_ID_MIN_CHARS, CUSTOM_ID_MAX_CHARS);
  if (typeof value !== "string") return;
  if (seen.has(value))
    errors.add(
      [...path, "custom_id"],
      "COMPONENT_CUSTOM_ID_DUPLICATED",
      "Component custom id cannot be duplicated",
    );
  seen.add(value);
}

function button(errors: FormErrors, path: FieldPath, c: DcComponent, seen: Set<string>): void {
  const style = c.style;
  if (typeof style !== "number" || !Number.isInteger(style) || style < 1 || style > 6) {
    errors.add([...path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.");
  }
  if (c.label !== undefined) errors.length([...path, "label"], c.label, 0, BUTTON_LABEL_MAX_CHARS);
  if (style === LINK_STYLE) {
    if (typeof c.url !== "string")
      errors.add([...path, "url"], "BUTTON_COMPONENT_URL_REQUIRED", "A url is required");
    if (c.custom_id !== undefined)
      errors.add([...path, "custom_id"], "BUTTON_COMPONENT_INVALID_ATTRIBUTE", "A custom id is not allowed");
  } else if (style !== PREMIUM_STYLE) {
    if (c.custom_id === undefined)
      errors.add([...path, "custom_id"], "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required");
    else customId(errors, path, c.custom_id, seen);
  }
}

/**
 * Checks message `components`: ≤ 5 action rows, 1–5 buttons each (or one select), ids and labels, and
 * a string select's options and value counts.
 */
export function checkComponents(errors: FormErrors, path: FieldPath, value: unknown): DcComponent[] {
  if (!Array.isArray(value)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Value must be an array.");
    return [];
  }
  if (value.length > ACTION_ROWS_MAX)
    errors.add(path, "BASE_TYPE_MAX_LENGTH", `Must be ${ACTION_ROWS_MAX} or fewer in length.`);
  const seen = new Set<string>();
  value.forEach((row: unknown, r) => {
    const rowPath = [...path, r];
    if (!isObject(row) || row.type !== ROW) {
      errors.add([...rowPath, "type"], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).');
      return;
    }
    const children = row.components;
    if (
      !Array.isArray(children) ||
      children.length < ROW_COMPONENTS_MIN ||
      children.length > ROW_COMPONENTS_MAX
    ) {
      errors.add(
        [...rowPath, "components"],
        "BASE_TYPE_BAD_LENGTH",
        `Must be between ${ROW_COMPONENTS_MIN} and ${ROW_COMPONENTS_MAX} in length.`,
      );
    }
    if (!Array.isArray(children)) return;
    children.forEach((child: unknown, i) => {
      const childPath = [...rowPath, "components", i];
      if (!isObject(child)) {
        errors.add(childPath, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      } else if (child.type === BUTTON) {
        button(errors, childPath, child as DcComponent, seen);
      } else if (typeof child.type === "number" && SELECTS.has(child.type)) {
        if (children.length > 1)
          errors.add(
            rowPath,
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
          );
        customId(errors, childPath, child.custom_id, seen);
        if (child.type === STRING_SELECT) checkStringSelect(errors, childPath, child);
      } else {
        errors.add(
          [...childPath, "type"],
          "UNION_TYPE_CHOICES",
          'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
        );
      }
    });
  });
  return value as DcComponent[];
}

function checkAllowedMentions(errors: FormErrors, path: FieldPath, value: unknown): AllowedMentions {
  if (!isObject(value)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return {};
  }
  const out: AllowedMentions = {};
  if (value.parse !== undefined) {
    if (!Array.isArray(value.parse))
      errors.add([...path, "parse"], "BASE_TYPE_ARRAY", "Value must be an array.");
    else {
      value.parse.forEach((entry: unknown, i) => {
        if (typeof entry !== "string" || !PARSE_TYPES.has(entry))
          errors.add(
            [...path, "parse", i],
            "BASE_TYPE_CHOICES",
            "Value must be one of ('roles', 'users', 'everyone').",
          );
      });
      out.parse = value.parse.filter((entry): entry is string => typeof entry === "string");
    }
  }
  for (const kind of ["users", "roles"] as const) {
    const list = value[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.add([...path, kind], "BASE_TYPE_ARRAY", "Value must be an array.");
      continue;
    }
    if (out.parse?.includes(kind)) {
      errors.add(
        [...path],
        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
      );
    }
    out[kind] = list.map(String);
  }
  if (typeof value.replied_user === "boolean") out.replied_user = value.replied_user;
  return out;
}

function readNonce(
  errors: FormErrors,
  prefix: FieldPath,
  source: Record<string, unknown>,
  out: MessageBody,
): void {
  const nonce = source.nonce;
  if (nonce !== undefined && nonce !== null) {
    if (typeof nonce === "number") {
      if (Number.isInteger(nonce)) out.nonce = nonce;
      else errors.add([...prefix, "nonce"], "NUMBER_TYPE_COERCE", `Value "${nonce}" is not int.`);
    } else {
      errors.length([...prefix, "nonce"], nonce, 0, NONCE_MAX_CHARS);
      if (typeof nonce === "string") out.nonce = nonce;
    }
  }
  if (source.enforce_nonce !== undefined && source.enforce_nonce !== null) {
    if (typeof source.enforce_nonce !== "boolean")
      errors.add([...prefix, "enforce_nonce"], "BASE_TYPE_BOOLEAN", "Must be either true or false.");
    else out.enforce_nonce = source.enforce_nonce;
  }
}

/**
 * Reads and checks a message body (create, edit, interaction reply). Every problem is collected and
 * thrown as one `50035 Invalid Form Body` whose paths start with `prefix` (e.g. `["data"]`).
 */
export function readMessageBody(body: unknown, prefix: FieldPath, options: { edit: boolean }): MessageBody {
  const source = isObject(body) ? body : {};
  const errors = new FormErrors();
  const out: MessageBody = {};
  if (source.content !== undefined && source.content !== null) {
    errors.length([...prefix, "content"], source.content, 0, MESSAGE_CONTENT_MAX_CHARS);
    if (typeof source.content === "string") out.content = source.content;
  }
  if (source.components !== undefined && source.components !== null)
    out.components = checkComponents(errors, [...prefix, "components"], source.components);
  if (Array.isArray(source.embeds)) out.embeds = source.embeds;
  if (source.flags !== undefined && source.flags !== null) {
    if (typeof source.flags !== "number" || !Number.isInteger(source.flags))
      errors.add([...prefix, "flags"], "NUMBER_TYPE_COERCE", `Value "${String(source.flags)}" is not int.`);
    else out.flags = source.flags;
  }
  if (source.allowed_mentions !== undefined && source.allowed_mentions !== null)
    out.allowed_mentions = checkAllowedMentions(
      errors,
      [...prefix, "allowed_mentions"],
      source.allowed_mentions,
    );
  const reference = source.message_reference;
  if (isObject(reference) && reference.message_id !== undefined) {
    out.message_reference = { message_id: String(reference.message_id) };
    if (reference.channel_id !== undefined) out.message_reference.channel_id = String(reference.channel_id);
    if (typeof reference.fail_if_not_exists === "boolean")
      out.message_reference.fail_if_not_exists = reference.fail_if_not_exists;
  }
  if (!options.edit) readNonce(errors, prefix, source, out);
  errors.throwIfAny();
  const empty =
    (out.content ?? "").trim() === "" &&
    (out.components?.length ?? 0) === 0 &&
    (out.embeds?.length ?? 0) === 0;
  if (!options.edit && empty) throw emptyMessage();
  return out;
}
