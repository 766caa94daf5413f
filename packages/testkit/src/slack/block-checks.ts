/** The primitives of the fake's Block Kit validation, shared by `blocks.ts` and `choices.ts`. */
import { isObject } from "./params.ts";

/** Problems found so far, in Slack's wording. */
export type Problems = string[];

/** Slack's pointer to a field: `[json-pointer:/blocks/0/text]`. */
export const at = (path: string) => `[json-pointer:${path}]`;

/** A string over `max` characters. */
export function tooLong(problems: Problems, value: string, max: number, path: string): void {
  if (value.length > max) problems.push(`must be less than ${max + 1} characters ${at(path)}`);
}

/** An optional string of at most `max` characters. */
export function optString(problems: Problems, value: unknown, max: number, path: string): void {
  if (value === undefined) return;
  if (typeof value !== "string") problems.push(`must be a string ${at(path)}`);
  else tooLong(problems, value, max, path);
}

/** A text object: `{ type: "plain_text" | "mrkdwn", text }`, 1..max characters. */
export function textObject(
  problems: Problems,
  value: unknown,
  path: string,
  max: number,
  plainOnly: boolean,
): void {
  if (!isObject(value)) {
    problems.push(`must provide an object ${at(path)}`);
    return;
  }
  const types = plainOnly ? ["plain_text"] : ["plain_text", "mrkdwn"];
  if (typeof value.type !== "string" || !types.includes(value.type)) {
    problems.push(`must be a valid enum value ${at(`${path}/type`)}`);
  }
  if (typeof value.text !== "string") {
    problems.push(`must provide a string ${at(`${path}/text`)}`);
  } else if (value.text.length === 0) {
    problems.push(`must be more than 0 characters ${at(`${path}/text`)}`);
  } else {
    tooLong(problems, value.text, max, `${path}/text`);
  }
}
