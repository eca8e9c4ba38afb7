/*
 * STAND-IN, replaced at merge by the cassette layer (record/replay of every model request, keyed by a
 * hash of the canonical request) built on its own branch. It keeps the agreed interface: only 'live'
 * works here; 'record' and 'replay' throw until the real file lands.
 */
import type { ModelFetch, ModelFetchOptions } from '../model-fetch.js';

/** A replay found no cassette for a request; the real one names the first differing JSON path. */
export class CassetteMissError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CassetteMissError';
  }
}

export function cassetteFetch(options: ModelFetchOptions, live: ModelFetch = fetch): ModelFetch {
  if (options.mode === 'live') return live;
  return () => Promise.reject(new CassetteMissError(`--${options.mode} needs the cassette layer, which this build does not have yet; run live (without --replay/--record, and CI unset)`));
}
