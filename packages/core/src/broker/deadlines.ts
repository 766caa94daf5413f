import type { CancelTimer, Clock } from "../ports/clock.ts";

/**
 * Deadlines of many questions on one timer: an indexed binary min-heap of (expiresAt, id) — one entry per
 * question, removed as soon as the question ends — and one clock timer for the earliest. A timer that
 * fires late (suspended process) fires everything overdue; one that fires early is re-armed.
 *
 * The heap is two parallel arrays (deadlines as unboxed doubles, ids) rather than an object per entry:
 * about 16 bytes a question besides the position index, which matters at a million pending questions.
 */
export class Deadlines {
  /** `ats[i]` is the deadline of `ids[i]`; heap-ordered by deadline. */
  private readonly ats: number[] = [];
  private readonly ids: string[] = [];
  /** Where each question's entry sits in the heap. */
  private readonly index = new Map<string, number>();
  private cancel: CancelTimer | undefined;
  private armedFor = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (id: string) => void,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  /** Sets the deadline of `id` (replacing an earlier one). */
  add(id: string, at: number): void {
    if (this.stopped) return;
    const position = this.index.get(id);
    if (position !== undefined) {
      if (this.ats[position] === at) return;
      this.ats[position] = at;
      this.down(this.up(position));
    } else {
      this.ats.push(at);
      this.ids.push(id);
      this.index.set(id, this.ids.length - 1);
      this.up(this.ids.length - 1);
    }
    this.arm();
  }

  /** Forgets the deadline of `id` (the question ended). */
  remove(id: string): void {
    const position = this.index.get(id);
    if (position === undefined) return;
    this.removeAt(position);
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
    this.ats.length = 0;
    this.ids.length = 0;
    this.index.clear();
  }

  private arm(): void {
    const first = this.ats[0];
    if (first === undefined || first >= this.armedFor) return;
    this.cancel?.();
    this.armedFor = first;
    this.cancel = this.clock.setTimer(() => this.fire(), first - this.clock.now());
  }

  private fire(): void {
    this.cancel = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const due: string[] = [];
    while (this.ids.length > 0 && (this.ats[0] as number) <= now) {
      due.push(this.ids[0] as string);
      this.removeAt(0);
    }
    this.arm();
    for (const id of due) this.onDue(id);
  }

  private removeAt(position: number): void {
    this.index.delete(this.ids[position] as string);
    const lastAt = this.ats.pop() as number;
    const lastId = this.ids.pop() as string;
    if (position < this.ids.length) {
      this.ats[position] = lastAt;
      this.ids[position] = lastId;
      this.index.set(lastId, position);
      this.down(this.up(position));
    }
  }

  private swap(i: number, j: number): void {
    const { ats, ids } = this;
    const at = ats[i] as number;
    const id = ids[i] as string;
    ats[i] = ats[j] as number;
    ids[i] = ids[j] as string;
    ats[j] = at;
    ids[j] = id;
    this.index.set(ids[i] as string, i);
    this.index.set(id, j);
  }

  /** Moves the entry at `position` up; returns where it ended. */
  private up(position: number): number {
    const ats = this.ats;
    let i = position;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((ats[parent] as number) <= (ats[i] as number)) break;
      this.swap(i, parent);
      i = parent;
    }
    return i;
  }

  private down(position: number): void {
    const ats = this.ats;
    const length = ats.length;
    let i = position;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < length && (ats[left] as number) < (ats[smallest] as number)) smallest = left;
      if (right < length && (ats[right] as number) < (ats[smallest] as number)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
