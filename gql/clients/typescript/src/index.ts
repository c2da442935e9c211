// hippograph-client: the typed client, its errors, retry policy, page iterators and a typed
// document for every query and mutation of the service (`RetrieveDocument`, `WriteDocument`...).
export { HippographClient, type ClientOptions, type Document } from "./client.js";
export * from "./errors.js";
export { DEFAULT_RETRY, NO_RETRY, type RetryPolicy } from "./transport.js";
export { iterEntities, iterEvents, iterFacts } from "./pages.js";
export * from "./generated/graphql.js";
