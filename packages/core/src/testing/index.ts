/** Test helpers for ask-user: a fake clock, sample records and the store contract suite. */
export { createFakeClock, type FakeClock, flush } from "./fake-clock.ts";
export { rolloutInput, sampleRecord } from "./records.ts";
export { createSlowStore, type SlowStore, type SlowStoreOptions } from "./slow-store.ts";
export { type StoreContractOptions, storeContractTests } from "./store-contract.ts";
