// @ts-check
/**
 * The encoding of what crosses between the main thread and the writer thread: a group of writes as one
 * flat array of primitives, and the answers of a transaction the same way (the layouts are described
 * with their types, `WireGroup` and `WireAnswers`, in `protocol.ts`). Plain JavaScript (typed through
 * JSDoc, checked by tsc) so that the worker loads it without a TypeScript loader; the main thread takes
 * it through `writer.mjs`. A `:memory:` store runs its writer on the main thread and never encodes.
 */
/** @import { ErrorShape, GroupResult, WireAnswers, WireGroup, WireValue, WriteOp, WriteOutcome, WriterStats } from "./protocol.ts" */

/** The kind code of each write, its first value on the wire. */
const CREATE = 0;
const COMPARE_AND_SET = 1;
const SEE = 2;
const LEASE = 3;
const RELEASE = 4;
const FORGET = 5;
const PRUNE = 6;

/** Outcome tags in the answers; a group count of FAILED_GROUP stands for a group that failed whole. */
const FAILED = 0;
const OK = 1;
const FAILED_GROUP = -1;

/**
 * A group of writes as one flat array (layout: `WireGroup` in `protocol.ts`).
 * @param {number} id
 * @param {readonly WriteOp[]} ops
 * @returns {WireGroup}
 */
export function encodeGroup(id, ops) {
  /** @type {WireGroup} */
  const wire = [id];
  for (const op of ops) {
    switch (op.kind) {
      case "create":
      case "compareAndSet": {
        if (op.kind === "create") wire.push(CREATE);
        else wire.push(COMPARE_AND_SET, op.expected);
        const { row, tokens, messages } = op;
        wire.push(
          row.id,
          row.version,
          row.status,
          row.run_id,
          row.target_channel,
          row.target_conversation,
          row.created_at,
          row.expires_at,
          row.needs_repair,
          row.record,
          tokens.length,
        );
        for (const token of tokens) wire.push(token);
        wire.push(messages.length);
        for (const [channel, conversation, messageId] of messages)
          wire.push(channel, conversation, messageId);
        break;
      }
      case "see":
        wire.push(SEE, op.key, op.expires, op.now);
        break;
      case "lease":
        wire.push(LEASE, op.name, op.holder, op.expires, op.now);
        break;
      case "release":
        wire.push(RELEASE, op.name, op.holder);
        break;
      case "forget":
        wire.push(FORGET, op.now);
        break;
      case "prune":
        wire.push(PRUNE, op.before, op.limit);
        break;
    }
  }
  return wire;
}

/**
 * The group {@link encodeGroup} made. Throws on an array it did not make (an unknown kind code, a count
 * that is not one, values missing or left over).
 * @param {WireGroup} wire
 * @returns {{ id: number, ops: WriteOp[] }}
 */
export function decodeGroup(wire) {
  const end = wire.length;
  let at = 1;
  /**
   * The next value, as the type the layout says it has (both sides are this file).
   * @returns {never}
   */
  const next = () => /** @type {never} */ (wire[at++]);
  /** @returns {number} */
  const count = () => {
    const n = wire[at++];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || at + n > end)
      throw new Error(`a write group holds a bad count at ${at - 1}`);
    return n;
  };
  /** @type {WriteOp[]} */
  const ops = [];
  while (at < end) {
    const code = wire[at++];
    switch (code) {
      case CREATE:
      case COMPARE_AND_SET: {
        const expected = code === COMPARE_AND_SET ? next() : 0;
        const row = {
          id: next(),
          version: next(),
          status: next(),
          run_id: next(),
          target_channel: next(),
          target_conversation: next(),
          created_at: next(),
          expires_at: next(),
          needs_repair: next(),
          record: next(),
        };
        const tokenCount = count();
        /** @type {string[]} */
        const tokens = [];
        for (let i = 0; i < tokenCount; i++) tokens.push(next());
        const messageCount = count();
        /** @type {[string, string, string][]} */
        const messages = [];
        for (let i = 0; i < messageCount; i++) messages.push([next(), next(), next()]);
        ops.push(
          code === CREATE
            ? { kind: "create", row, tokens, messages }
            : { kind: "compareAndSet", expected, row, tokens, messages },
        );
        break;
      }
      case SEE:
        ops.push({ kind: "see", key: next(), expires: next(), now: next() });
        break;
      case LEASE:
        ops.push({
          kind: "lease",
          name: next(),
          holder: next(),
          expires: next(),
          now: next(),
        });
        break;
      case RELEASE:
        ops.push({ kind: "release", name: next(), holder: next() });
        break;
      case FORGET:
        ops.push({ kind: "forget", now: next() });
        break;
      case PRUNE:
        ops.push({ kind: "prune", before: next(), limit: next() });
        break;
      default:
        throw new Error(`a write group holds an unknown kind code ${String(code)} at ${at - 1}`);
    }
  }
  if (at !== end) throw new Error(`a write group ends in the middle of a write (${end} values)`);
  return { id: Number(wire[0]), ops };
}

/**
 * @param {WireAnswers} wire
 * @param {ErrorShape} error
 */
function pushError(wire, error) {
  wire.push(error.name, error.message, error.code ?? null);
}

/**
 * The answers of `groups`, carried out together as one transaction whose result is `result` (its
 * outcomes in the groups' order), as one flat array (layout: `WireAnswers` in `protocol.ts`).
 * @param {readonly { id: number, ops: readonly WriteOp[] }[]} groups
 * @param {GroupResult} result
 * @returns {WireAnswers}
 */
export function encodeAnswers(groups, result) {
  const { stats } = result;
  /** @type {WireAnswers} */
  const wire = [stats.writes, stats.transactions, stats.largestGroup];
  let at = 0;
  for (const { id, ops } of groups) {
    const size = ops.length;
    wire.push(id);
    if (!result.ok) {
      wire.push(FAILED_GROUP);
      pushError(wire, result.error);
      continue;
    }
    wire.push(size);
    for (let i = at; i < at + size; i++) {
      const outcome = result.outcomes[i];
      if (outcome?.ok) wire.push(OK, outcome.value);
      else {
        wire.push(FAILED);
        pushError(wire, outcome?.error ?? NO_OUTCOME);
      }
    }
    at += size;
  }
  return wire;
}

/** @type {ErrorShape} */
const NO_OUTCOME = { name: "Error", message: "no outcome for a write" };

/**
 * Hands each group's result in `wire` (made by {@link encodeAnswers}) to `answer`, in order, and
 * returns the writer's counts.
 * @param {WireAnswers} wire
 * @param {(id: number, result: GroupResult) => void} answer
 * @returns {WriterStats}
 */
export function decodeAnswers(wire, answer) {
  /** @type {WriterStats} */
  const stats = { writes: num(wire[0]), transactions: num(wire[1]), largestGroup: num(wire[2]) };
  let at = 3;
  /** @returns {ErrorShape} */
  const error = () => {
    const name = String(wire[at++]);
    const message = String(wire[at++]);
    const code = wire[at++];
    return typeof code === "string" ? { name, message, code } : { name, message };
  };
  while (at < wire.length) {
    const id = num(wire[at++]);
    const size = num(wire[at++]);
    if (size === FAILED_GROUP) {
      answer(id, { ok: false, error: error(), stats });
      continue;
    }
    /** @type {WriteOutcome[]} */
    const outcomes = [];
    for (let i = 0; i < size && at < wire.length; i++)
      outcomes.push(
        wire[at++] === OK
          ? { ok: true, value: /** @type {WireValue} */ (wire[at++]) }
          : { ok: false, error: error() },
      );
    answer(id, { ok: true, outcomes, stats });
  }
  return stats;
}

/** @param {WireValue | undefined} value */
const num = (value) => (typeof value === "number" ? value : Number.NaN);
