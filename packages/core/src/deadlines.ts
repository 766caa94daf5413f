import type { CancelTimer, Clock } from "./clock.ts";

interface Entry {
  at: number;
  id: string;
}

/**
 * Deadlines of many questions on one timer: an indexed binary min-heap of (expiresAt, id) — one entry per
 * question, removed as soon as the question ends — and one clock timer for the earliest. A timer that
 * fires late (suspended process) fires everything overdue; one that fires early is re-armed.
 */
export class Deadlines {
  private readonly heap: Entry[] = [];
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
    return this.heap.length;
  }

  /** Sets the deadline of `id` (replacing an earlier one). */
  add(id: string, at: number): void {
    if (this.stopped) return;
    const at0 = this.index.get(id);
    if (at0 !== undefined) {
      const entry = this.heap[at0] as Entry;
      if (entry.at === at) return;
      entry.at = at;
      this.down(this.up(at0));
    } else {
      this.heap.push({ at, id });
      this.index.set(id, this.heap.length - 1);
      this.up(this.heap.length - 1);
    }
    this.arm();
  }

  /** Forgets the deadline of `id` (the question ended). */
  remove(id: string): void {
    const at = this.index.get(id);
    if (at === undefined) return;
    this.removeAt(at);
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
    this.heap.length = 0;
    this.index.clear();
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first || first.at >= this.armedFor) return;
    this.cancel?.();
    this.armedFor = first.at;
    this.cancel = this.clock.setTimer(() => this.fire(), first.at - this.clock.now());
  }

  private fire(): void {
    this.cancel = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const due: string[] = [];
    for (let first = this.heap[0]; first && first.at <= now; first = this.heap[0]) {
      due.push(first.id);
      this.removeAt(0);
    }
    this.arm();
    for (const id of due) this.onDue(id);
  }

  private removeAt(position: number): void {
    const removed = this.heap[position] as Entry;
    this.index.delete(removed.id);
    const last = this.heap.pop() as Entry;
    if (position < this.heap.length) {
      this.heap[position] = last;
      this.index.set(last.id, position);
      this.down(this.up(position));
    }
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i] as Entry;
    const b = this.heap[j] as Entry;
    this.heap[i] = b;
    this.heap[j] = a;
    this.index.set(b.id, i);
    this.index.set(a.id, j);
  }

  /** Moves the entry at `position` up; returns where it ended. */
  private up(position: number): number {
    let i = position;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.heap[parent] as Entry).at <= (this.heap[i] as Entry).at) break;
      this.swap(i, parent);
      i = parent;
    }
    return i;
  }

  private down(position: number): void {
    const heap = this.heap;
    let i = position;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && (heap[left] as Entry).at < (heap[smallest] as Entry).at) smallest = left;
      if (right < heap.length && (heap[right] as Entry).at < (heap[smallest] as Entry).at) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
