import type { ConformCheck, ConformContext } from '../check-types.js';
import type { ListMethod } from '../list-all.js';
import { describeAnswer, Findings, frameEvidence } from './findings.js';
import { advertises, isModern } from './server-facts.js';

interface Feature {
  capability: string;
  method: string;
  /** Minimal valid params: a served method must not fail for want of them. */
  params?: Record<string, unknown>;
  /** The method exists only in the 2025 family (2026-07-28 removed logging/setLevel). */
  legacyOnly?: boolean;
}

const FEATURES: Feature[] = [
  { capability: 'tools', method: 'tools/list' },
  { capability: 'resources', method: 'resources/list' },
  { capability: 'prompts', method: 'prompts/list' },
  { capability: 'completions', method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'toolrun-probe' }, argument: { name: 'toolrun', value: '' } } },
  { capability: 'logging', method: 'logging/setLevel', params: { level: 'info' }, legacyOnly: true },
];

const LIST_METHODS = new Set<string>(['tools/list', 'resources/list', 'prompts/list']);

/**
 * What the handshake advertises is served, and what it does not advertise answers -32601: a client
 * decides what to show from the capabilities, so a server that serves an unadvertised feature (or
 * answers everything with a result) misleads every client.
 */
export const capabilitiesHonest: ConformCheck = {
  id: 'capabilities.honest',
  title: 'Advertised capabilities are served; the others answer -32601',
  section: 'basic/lifecycle#capability-negotiation',
  modernSection: 'server/discover',
  async run(context) {
    const findings = new Findings();
    const served: string[] = [];
    const absent: string[] = [];
    for (const feature of FEATURES) {
      if (feature.legacyOnly && isModern(context)) continue;
      if (advertises(context, feature.capability)) {
        await judgeAdvertised(context, feature, findings);
        served.push(feature.capability);
      } else {
        const answer = await context.channel.request(feature.method, feature.params);
        absent.push(feature.capability);
        const what = `${feature.method} (capability "${feature.capability}" not advertised)`;
        if (answer.kind === 'result') findings.fail(frameEvidence(answer.frame, `${what} answered with a result instead of error -32601`, 'result'));
        else if (answer.kind === 'error' && answer.error.code !== -32601) findings.warn(frameEvidence(answer.frame, `${what} answered ${describeAnswer(answer)} instead of -32601`, 'error.code'));
        else if (answer.kind !== 'error') findings.fail({ detail: `${what} got ${describeAnswer(answer)}` });
      }
    }
    const parts = [served.length ? `${served.join(', ')} advertised and served` : '', absent.length ? `${absent.join(', ')} not advertised and answer -32601` : ''];
    return findings.outcome(parts.filter(Boolean).join('; '));
  },
};

async function judgeAdvertised(context: ConformContext, feature: Feature, findings: Findings): Promise<void> {
  const what = `${feature.method} (capability "${feature.capability}" advertised)`;
  if (LIST_METHODS.has(feature.method)) {
    // The listing every other check uses; its first page is the first answer to the method.
    const listed = await context.listAll(feature.method as ListMethod);
    const first = listed.pages[0];
    if (listed.stopped && listed.pages.length === 1) findings.fail(frameEvidence(first?.frame, `${what} failed: ${listed.stopped.reason}`, first?.frame ? 'error' : undefined));
    return;
  }
  const answer = await context.channel.request(feature.method, feature.params);
  if (answer.kind === 'error' && answer.error.code === -32601) findings.fail(frameEvidence(answer.frame, `${what} answered -32601 (Method not found)`, 'error.code'));
  else if (answer.kind === 'timeout' || answer.kind === 'closed') findings.fail({ detail: `${what} got ${describeAnswer(answer)}` });
}
