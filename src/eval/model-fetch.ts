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
  /**
   * Who records (the model label, and the host the tools are presented as): written into each cassette
   * so that `--record` removes, of the cassettes this profile recorded before, those it no longer uses.
   */
  profile?: string;
  /** Record mode: the key of every cassette written, collected here for that pruning. */
  written?: Set<string>;
  /** The provider's base URL: a request's path is keyed after it (canonical-request.ts), so any endpoint replays it. */
  baseUrl?: string;
}
