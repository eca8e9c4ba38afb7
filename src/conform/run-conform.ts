import type { ArgWord } from '../args/parse-tool-args.js';
import { coerceBySchema } from '../args/coerce-args.js';
import type { ServerSpec } from '../config/resolve-server.js';
import type { ConformCheck, ConformContext, ListedPages, PlannedCall, TransportFacts } from './check-types.js';
import type { CheckResult, ConformReport, Verdict } from './conform-types.js';
import { cutEvidence } from './cut-evidence.js';
import { describeAnswer } from './checks/findings.js';
import { openHandshake, type HandshakeOutcome } from './handshake.js';
import { planCalls } from './generate-arguments.js';
import { HttpWire } from './http-wire.js';
import { listAll } from './list-all.js';
import { WireProbeChannel } from './probe-channel.js';
import type { ConformProfile } from './profiles.js';
import { StdioWire } from './stdio-wire.js';
import type { OtlpReceiver } from '../trace/otlp-receiver.js';
import { useRequestSpanIds } from '../trace/run-trace.js';
import { formatTraceParent, randomHexId } from '../trace/trace-context.js';
import { traceContinuationCheck } from './checks/trace-continuation.js';
import { conformTrace, withOtlpEndpoint } from './conform-trace.js';

export interface ConformRunOptions {
  spec: ServerSpec;
  profile: ConformProfile;
  /** `--call TOOL ARGS…`: the words, typed by the tool's schema once it is listed. */
  calls: { tool: string; words: ArgWord[] }[];
  callAll: boolean;
  /** Per request. */
  timeoutMs: number;
  /** The whole run: past it, the check under way fails and the rest are skipped. */
  deadlineMs: number;
  /** stdio: how long the server has to exit once its stdin closes. */
  graceMs: number;
  signal?: AbortSignal;
  /** Each check's result as it is known (progress on stderr). */
  onCheck?: (result: CheckResult) => void;
  /** `--trace`: the receiver the server exports its spans to (a stdio server is started pointed at it). */
  trace?: OtlpReceiver;
}

/**
 * How long the trace check waits for a first span once the other checks are done: a stdio server is
 * started with OTEL_BSP_SCHEDULE_DELAY (the batch span processor's delay, read by every OpenTelemetry
 * SDK) at 200 ms and has exited by then (exporting what it had); an HTTP server keeps its own
 * settings, whose default delay is 5000 ms (OpenTelemetry "Environment Variable Specification").
 */
const TRACE_WAIT_MS = { stdio: 2000, http: 6000 };

type Wire = StdioWire | HttpWire;

/**
 * Runs a profile on one server: a connection, its handshake, then every check in order on that
 * connection (fresh ones where a check needs a clean start), under one deadline. Never throws for
 * what the server does: an unreachable server is a report with `unreachable` set.
 */
export async function runConform(options: ConformRunOptions): Promise<ConformReport> {
  const startedAt = performance.now();
  const { profile } = options;
  const spec = options.trace ? withOtlpEndpoint(options.spec, options.trace.url) : options.spec;
  const runTrace = options.trace ? useRequestSpanIds() : undefined;
  const wires: Wire[] = [];
  const channels: WireProbeChannel[] = [];
  const report: ConformReport = {
    profile: { name: profile.name, version: profile.version },
    server: spec.name,
    transport: spec.transport === 'stdio' ? 'stdio' : 'http',
    calls: [],
    checks: [],
    summary: { pass: 0, fail: 0, warn: 0, skip: 0 },
    durationMs: 0,
  };
  const finish = () => {
    for (const check of report.checks) report.summary[check.verdict]++;
    report.durationMs = Math.round(performance.now() - startedAt);
    return report;
  };
  // --trace over HTTP: each POST's own span id in its traceparent header, apart from the _meta one.
  const headerSpans = new Set<string>();
  const startWire = async (): Promise<Wire> => {
    const wire = spec.transport === 'stdio' ? await StdioWire.start(spec, options.graceMs) : new HttpWire(spec);
    if (runTrace && wire instanceof HttpWire) {
      wire.transportTraceparent = () => {
        const spanId = randomHexId(8);
        headerSpans.add(spanId);
        return formatTraceParent(runTrace.traceId, spanId, runTrace.flags);
      };
    }
    wires.push(wire);
    return wire;
  };
  // A stdio server's second process (version negotiation needs a fresh start) starts beside the
  // first, so its start-up overlaps the main handshake instead of adding to the run.
  let spare: Promise<Wire> | undefined;
  const open = async (): Promise<WireProbeChannel> => {
    const waiting = spare;
    spare = undefined;
    const wire = await (waiting ?? startWire());
    const channel = new WireProbeChannel(wire, 'legacy', 'unknown', options.timeoutMs);
    channels.push(channel);
    return channel;
  };
  try {
    let channel: WireProbeChannel;
    try {
      channel = await open();
      if (spec.transport === 'stdio') (spare = startWire()).catch(() => {});
    } catch (error) {
      report.unreachable = error instanceof Error ? error.message : String(error);
      return finish();
    }
    const handshake = await openHandshake(channel, spec.protocol.setting);
    report.protocolVersion = handshake.ok ? channel.protocolVersion : undefined;
    if (report.protocolVersion) report.specBase = `https://modelcontextprotocol.io/specification/${report.protocolVersion}/`;
    if (!handshake.ok) {
      if (unreachableAnswer(handshake)) {
        report.unreachable = handshake.how;
        return finish();
      }
      report.checks.push(handshakeFailure(profile, handshake));
      for (const check of profile.checks.slice(1)) report.checks.push(skipped(check, 'the handshake failed'));
      return finish();
    }
    const lists = new Map<string, Promise<ListedPages>>();
    const context: ConformContext = {
      channel,
      handshake: { method: handshake.method, request: handshake.request, response: handshake.response, result: handshake.result },
      capabilities: handshake.capabilities,
      calls: [],
      callAll: options.callAll,
      timeoutMs: options.timeoutMs,
      listAll: (method) => {
        if (!lists.has(method)) lists.set(method, listAll(channel, method));
        return lists.get(method)!;
      },
      openFreshChannel: open,
      signal: options.signal ?? new AbortController().signal,
      transport: transportFacts(channels, wires, options.graceMs),
      trace: options.trace && runTrace ? conformTrace(options.trace, runTrace.traceId, channels, headerSpans, spec.transport === 'stdio' ? TRACE_WAIT_MS.stdio : TRACE_WAIT_MS.http) : undefined,
    };
    context.calls = await planRunCalls(context, options);
    report.calls = context.calls.map(({ tool, arguments: args, generated, skipped }) => ({ tool, arguments: args, generated, ...(skipped ? { skipped } : {}) }));
    // The trace check comes after the shutdown check: a server exports what it has left as it exits.
    const checks = withExtensionChecks(profile, context.capabilities);
    await runChecks(options.trace ? [...checks, traceContinuationCheck] : checks, context, report, options);
    return finish();
  } finally {
    await Promise.all(wires.map((wire) => wire.close().catch(() => {})));
  }
}

const DEADLINE_SLACK_MS = 25;

/**
 * The profile's checks, with those of each extension the server declares (when the profile has them)
 * before `schema.frames` (SPEC §23): a server that declares none gets the profile's report unchanged.
 */
function withExtensionChecks(profile: ConformProfile, capabilities: Record<string, unknown>): ConformCheck[] {
  const extra = profile.declaredExtensionChecks?.(capabilities) ?? [];
  if (extra.length === 0) return profile.checks;
  const at = profile.checks.findIndex((check) => check.id === 'schema.frames');
  return at < 0 ? [...profile.checks, ...extra] : [...profile.checks.slice(0, at), ...extra, ...profile.checks.slice(at)];
}

/** The checks in order, each bounded by what is left of the run's deadline. */
async function runChecks(checks: ConformCheck[], context: ConformContext, report: ConformReport, options: ConformRunOptions): Promise<void> {
  const deadlineAt = performance.now() + options.deadlineMs;
  const deadline = { hit: false };
  for (const check of checks) {
    const left = deadlineAt - performance.now();
    if (options.signal?.aborted) break;
    // A timer may fire a little before performance.now() reaches its time: what is left of the
    // deadline then is a sliver no check can use, and the next check must not be failed by it.
    if ((deadline.hit || left <= DEADLINE_SLACK_MS) && !check.afterDeadline) {
      report.checks.push(skipped(check, `the run's deadline (${seconds(options.deadlineMs)}) had passed; raise --deadline`));
      continue;
    }
    // A check of what was recorded has its own bound (the shutdown: twice the grace) past the deadline.
    const result = await runOne(check, context, Math.max(left, check.afterDeadline ? 3 * options.graceMs : 0), options.deadlineMs, deadline);
    report.checks.push(result);
    options.onCheck?.(result);
  }
}

async function runOne(check: ConformCheck, context: ConformContext, leftMs: number, deadlineMs: number, deadline: { hit: boolean }): Promise<CheckResult> {
  const started = performance.now();
  const base = { id: check.id, title: check.title, section: (context.channel.era === 'modern' && check.modernSection) || check.section };
  if (check.transports && !check.transports.includes(context.channel.transport)) {
    return { ...base, verdict: 'skip', message: `applies to ${check.transports.join(' and ')} servers only`, evidence: [], durationMs: 0 };
  }
  let timer: NodeJS.Timeout | undefined;
  const cutOff = new Promise<{ verdict: Verdict; message: string }>((resolve) => {
    timer = setTimeout(() => {
      // Once one check is cut off, no later one may start on what little is left.
      deadline.hit = true;
      resolve({ verdict: 'fail', message: `did not finish before the run's deadline (${seconds(deadlineMs)}): the server answers too slowly or not at all (raise --deadline to wait longer)` });
    }, leftMs);
  });
  try {
    const outcome = await Promise.race([check.run(context), cutOff]).catch((error: unknown) => ({
      verdict: 'fail' as const,
      message: `the check could not run: ${error instanceof Error ? error.message : String(error)}`,
    }));
    return {
      ...base,
      verdict: outcome.verdict,
      message: outcome.message,
      evidence: cutEvidence('evidence' in outcome ? (outcome.evidence ?? []) : []),
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** `--call` words typed by each tool's schema; `--call-all` adds the tools not named, with generated arguments. */
async function planRunCalls(context: ConformContext, options: ConformRunOptions): Promise<PlannedCall[]> {
  if (options.calls.length === 0 && !options.callAll) return [];
  const listed = await context.listAll('tools/list');
  const schemaOf = (name: string) => listed.items.find((tool) => tool.name === name)?.inputSchema as Record<string, unknown> | undefined;
  const given = options.calls.map((call) => ({ tool: call.tool, arguments: coerceBySchema(call.words, schemaOf(call.tool)) }));
  return planCalls(listed.items, given, options.callAll, context.channel.protocolVersion);
}

function transportFacts(channels: WireProbeChannel[], wires: Wire[], graceMs: number): TransportFacts {
  const main = wires[0];
  const facts: TransportFacts = {
    get strays() {
      return channels.flatMap((channel) => channel.strays);
    },
    get overflow() {
      return channels.map((channel) => channel.log.overflow).find(Boolean);
    },
    get givenUpCalls() {
      return channels.reduce((total, channel) => total + channel.givenUpCalls, 0);
    },
  };
  if (main instanceof StdioWire) {
    // Each start of the server is its own stdout: a line number is told with the start it belongs to.
    Object.defineProperty(facts, 'pollution', {
      get: () => wires.flatMap((wire, index) => (wire instanceof StdioWire ? wire.pollution.map((line) => ({ ...line, start: index + 1 })) : [])),
      enumerable: true,
    });
    facts.shutdown = async () => {
      const exitedBefore = main.server.exitInfo;
      const started = performance.now();
      const outcome = await main.shutdown();
      const exit = main.server.exitInfo ?? exitedBefore;
      return {
        outcome: exitedBefore ? 'already-exited' : outcome,
        afterMs: Math.round(performance.now() - started),
        exit: exit ? (exit.signal ? `killed by ${exit.signal}` : `exit code ${String(exit.code)}`) : undefined,
        graceMs,
      };
    };
  }
  return facts;
}

/** The server could not be spoken to at all (exit 4): it exited, or nothing answered over HTTP. */
function unreachableAnswer(handshake: Extract<HandshakeOutcome, { ok: false }>): boolean {
  return handshake.answer.kind === 'closed' || handshake.answer.kind === 'timeout';
}

function handshakeFailure(profile: ConformProfile, handshake: Extract<HandshakeOutcome, { ok: false }>): CheckResult {
  const check = profile.checks[0]!;
  const frame = handshake.answer.kind === 'error' || handshake.answer.kind === 'result' ? handshake.answer.frame : undefined;
  return {
    id: check.id,
    title: check.title,
    section: check.section,
    verdict: 'fail',
    message: `${handshake.method} got ${describeAnswer(handshake.answer)}: ${handshake.how}`,
    evidence: cutEvidence(frame ? [{ detail: `the ${handshake.method} answer`, frame: frame.message, direction: 'received', line: frame.line }] : []),
    durationMs: 0,
  };
}

/** 2500 → "2.5 s", 120000 → "120 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function skipped(check: ConformCheck, why: string): CheckResult {
  return { id: check.id, title: check.title, section: check.section, verdict: 'skip', message: why, evidence: [], durationMs: 0 };
}
