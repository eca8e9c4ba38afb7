// A plain-JavaScript fixture (bench/eval-replay.mjs runs it as a process too); its shape is typed below.
import { startScriptedModelServer } from '../../fixtures/servers/scripted-model-server.js';

/** A call a scripted turn makes: the tool's name as the model calls it, and its arguments. */
export interface ScriptedCall {
  name: string;
  arguments?: unknown;
}

/** One assistant turn: tool calls, a text that ends the conversation, or an HTTP error quoting the key header. */
export type ScriptedTurn = { call: ScriptedCall } | { calls: ScriptedCall[] } | { text: string } | { error: number };

/** fixtures/servers/scripted-model-server.js's scenarios; `match` defaults to any prompt here. */
export interface ScriptedScenario {
  name?: string;
  match?: string;
  model?: string;
  turns?: ScriptedTurn[];
  runs?: ScriptedTurn[][];
  /** Tokens each answer reports; here 100 in and 10 out unless given. */
  usage?: { input: number; output: number };
  /** Its first turn is held until this many first turns (of scenarios that say so) wait: proof of side-by-side runs. */
  together?: number;
}

export interface ScriptedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface ScriptedModel {
  /** The server's origin; a provider's base URL is `baseUrl`, this + /v1. */
  url: string;
  baseUrl: string;
  /** Every model request the server was sent, in order. */
  requests: ScriptedRequest[];
  /** Model requests answered so far. */
  requestCount(): Promise<number>;
  /** Plays these scenarios from now on (the first whose match is in the prompt answers). */
  script(scenarios: ScriptedScenario | ScriptedScenario[]): void;
  stop(): Promise<void>;
}

/**
 * Starts fixtures/servers/scripted-model-server.js in this process (the spawned toolrun reaches it
 * over HTTP all the same), playing fixtures/eval/model-script.json until `script` gives another.
 */
export async function startScriptedModel(): Promise<ScriptedModel> {
  const server = (await startScriptedModelServer()) as { url: string; requests: ScriptedRequest[]; setScript(script: unknown): void; close(): Promise<void> };
  return {
    url: server.url,
    baseUrl: `${server.url}/v1`,
    requests: server.requests,
    requestCount: async () => server.requests.length,
    script: (scenarios) => server.setScript({ scenarios: (Array.isArray(scenarios) ? scenarios : [scenarios]).map((scenario) => ({ match: '', usage: { input: 100, output: 10 }, ...scenario })) }),
    stop: () => server.close(),
  };
}
