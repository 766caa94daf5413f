import type { CancelTimer, Clock } from "./clock.ts";

interface Entry {
  at: number;
  id: string;
}

/**
 * Deadlines of many questions on one timer: a binary min-heap of (expiresAt, id) and one clock timer
 * for the earliest. A timer that fires late (suspended process) fires everything overdue; one that
 * fires early is re-armed. Entries are never removed early: the callback checks the record.
 */
export class Deadlines {
  private readonly heap: Entry[] = [];
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

  add(id: string, at: number): void {
    if (this.stopped) return;
    this.heap.push({ at, id });
    this.up(this.heap.length - 1);
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
    this.heap.length = 0;
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
      this.pop();
    }
    this.arm();
    for (const id of due) this.onDue(id);
  }

  private pop(): void {
    const last = this.heap.pop();
    if (last && this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
  }

  private up(index: number): void {
    const heap = this.heap;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const a = heap[i] as Entry;
      const b = heap[parent] as Entry;
      if (b.at <= a.at) break;
      heap[i] = b;
      heap[parent] = a;
      i = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && (heap[left] as Entry).at < (heap[smallest] as Entry).at) smallest = left;
      if (right < heap.length && (heap[right] as Entry).at < (heap[smallest] as Entry).at) smallest = right;
      if (smallest === i) return;
      const tmp = heap[i] as Entry;
      heap[i] = heap[smallest] as Entry;
      heap[smallest] = tmp;
      i = smallest;
    }
  }
}
