import type { ModelFetch, ModelFetchOptions } from '../model-fetch.js';
import { canonicalRequest, readFetchArguments, requestKey, type CanonicalRequest } from './canonical-request.js';
import { caseFolderOf, readCaseCassettes, readCassette, readCassetteIfValid, writeCassette, type Cassette } from './cassette-files.js';
import { CassetteMissError } from './cassette-miss-error.js';
import { jsonDifferences, type JsonDifference } from './json-differences.js';
import { recordResponse, responseFromRecording } from './recorded-response.js';

export { CassetteMissError } from './cassette-miss-error.js';

/**
 * The fetch a provider is given for one eval case. `live`: `live` itself. `record`: the request goes
 * out through `live` and a successful answer is written to the case's cassette, then returned as
 * replay would return it (so a recording run and its replays see the same bytes). `replay`: never
 * calls `live`; the answer comes from the cassette whose key is the request's, or the call throws
 * CassetteMissError naming the first place the request differs from the closest recording.
 */
export function cassetteFetch(options: ModelFetchOptions, live: ModelFetch = fetch): ModelFetch {
  if (options.mode === 'live') return live;
  const caseFolder = caseFolderOf(options.folder, options.caseName);
  return async (input, init) => {
    const { method, url, bodyText } = await readFetchArguments(input, init);
    const request: CanonicalRequest = { ...canonicalRequest(method, url, bodyText, options.baseUrl), ...(options.run ? { run: options.run } : {}) };
    const key = requestKey(request);
    if (options.mode === 'replay') {
      const cassette = readCassette(caseFolder, key);
      if (!cassette) throw new CassetteMissError(options.caseName, caseFolder, closestDifference(request, readCaseCassettes(caseFolder)));
      return responseFromRecording(cassette.response);
    }
    // A body fetch can read only once (a stream) goes out as the text the key was made from.
    const response = await live(input, init?.body === undefined || init.body === null || typeof init.body === 'string' ? init : { ...init, body: bodyText });
    // An error answer (a bad key, a rate limit, a server down) is the run's failure, not the model's
    // behaviour: it is passed on as it came and never becomes a cassette that CI would replay.
    if (!response.ok) return response;
    const cassette: Cassette = { key, request, response: await recordResponse(response), ...profilesAfterRecording(caseFolder, key, options.profile) };
    writeCassette(caseFolder, cassette);
    options.written?.add(key);
    return responseFromRecording(cassette.response);
  };
}

/** The profiles a re-recorded cassette keeps: the ones it had (other recordings that use it) and this one. */
function profilesAfterRecording(caseFolder: string, key: string, profile: string | undefined): Pick<Cassette, 'profiles'> {
  const profiles = new Set(readCassetteIfValid(caseFolder, key)?.profiles ?? []);
  if (profile !== undefined) profiles.add(profile);
  return profiles.size === 0 ? {} : { profiles: [...profiles].sort() };
}

/** The first difference against the recording with the fewest differences (the first such in file order). */
function closestDifference(request: CanonicalRequest, cassettes: Cassette[]): JsonDifference | undefined {
  let best: JsonDifference[] | undefined;
  for (const cassette of cassettes) {
    // Counting stops once a recording is no closer than the best so far.
    const differences = jsonDifferences(request, cassette.request, best ? best.length : Number.POSITIVE_INFINITY);
    if (differences.length === 0) continue;
    if (!best || differences.length < best.length) best = differences;
  }
  return best?.[0] && inRequestWords(best[0]);
}

/** Paths as a reader of the request knows them: `messages[2].content` in the body, `URL path` and `method` outside it. */
function inRequestWords(difference: JsonDifference): JsonDifference {
  const { path } = difference;
  if (path === 'path') return { ...difference, path: 'URL path' };
  if (path === 'body') return { ...difference, path: 'the request body' };
  if (path.startsWith('body.')) return { ...difference, path: path.slice('body.'.length) };
  if (path.startsWith('body[')) return { ...difference, path: path.slice('body'.length) };
  return difference;
}
