/** The fetch every provider is given: live, recording, or replaying (src/eval/cassette/). */
export type ModelFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Which fetch a case's model requests go through, and where its cassettes live. */
export interface ModelFetchOptions {
  mode: 'live' | 'record' | 'replay';
  /** __cassettes__ beside the eval file */
  folder: string;
  caseName: string;
}
