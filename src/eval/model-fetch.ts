/** The fetch every provider is given: live, recording, or replaying (src/eval/cassette/). */
export type ModelFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
export interface ModelFetchOptions {
  mode: 'live' | 'record' | 'replay';
  folder: string /* __cassettes__ beside the eval file */;
  caseName: string;
}
