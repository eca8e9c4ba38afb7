/** The fetch every provider is given: live, recording, or replaying (src/eval/cassette/). */
export type ModelFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
export interface ModelFetchOptions {
  mode: 'live' | 'record' | 'replay';
  folder: string /* __cassettes__ beside the eval file */;
  caseName: string;
  /**
   * Which of a case's `runs` this is (0-based): a run after the first has cassettes of its own, so
   * recording N runs keeps N answers and a replayed pass rate is over N recorded answers, not one.
   */
  run?: number;
}
