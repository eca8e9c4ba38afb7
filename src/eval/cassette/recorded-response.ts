import { maskSecrets } from '../../secrets/mask-secrets.js';

/**
 * A model's answer as a cassette keeps it: the status, the one header a provider reads to parse it
 * (content-type: JSON or an SSE stream), and the body as text. No other response header is kept:
 * they carry request ids, dates and rate-limit counters that would make two recordings differ, and
 * nothing the AI SDK's providers need to read the answer.
 */
export interface RecordedResponse {
  status: number;
  headers: { 'content-type'?: string };
  /** The body text, secrets masked; an SSE stream is kept as its text and replayed event by event. */
  body: string;
}

/** Reads a live answer whole (a stream to its end) into what a cassette keeps. */
export async function recordResponse(response: Response): Promise<RecordedResponse> {
  const contentType = response.headers.get('content-type');
  return { status: response.status, headers: contentType ? { 'content-type': contentType } : {}, body: maskSecrets(await response.text()) };
}

/** A fresh Response for a recording: an SSE body as a stream of its events, as the provider read it live. */
export function responseFromRecording(recorded: RecordedResponse): Response {
  const headers = new Headers(recorded.headers);
  const init = { status: recorded.status, headers };
  if (!isEventStream(recorded.headers['content-type'])) return new Response(recorded.body, init);
  const encoder = new TextEncoder();
  const events = splitEvents(recorded.body);
  // pull(), one event per read: the provider's SSE parser sees the boundaries it saw live.
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < events.length) controller.enqueue(encoder.encode(events[next++]));
      else controller.close();
    },
  });
  return new Response(stream, init);
}

function isEventStream(contentType: string | undefined): boolean {
  return contentType !== undefined && /^text\/event-stream\b/i.test(contentType);
}

/** The stream's events, each with its blank-line terminator, joined back they are the text exactly. */
function splitEvents(body: string): string[] {
  const events = body.split(/(?<=\r?\n\r?\n)/);
  return events.filter((event) => event !== '');
}
