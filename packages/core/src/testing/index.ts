/** Test helpers for ask-user: a fake clock, sample records and the store contract suite. */
export { createFakeClock, type FakeClock, flush } from "./fake-clock.ts";
export { sampleRecord } from "./records.ts";
export { type StoreContractOptions, storeContractTests } from "./store-contract.ts";
