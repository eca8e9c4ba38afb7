import type { ConformCheck } from '../check-types.js';

/** Every response answers a request that was sent, once; nothing floods the client. */
export const framingCheck: ConformCheck = {
  id: 'jsonrpc.responses',
  afterDeadline: true,
  title: 'Every response answers one request toolrun sent, once',
  section: 'basic#responses',
  async run({ transport }) {
    const strays = (transport?.strays ?? []).filter((stray) => !stray.frame.probe);
    if (transport?.overflow) return { verdict: 'fail', message: transport.overflow, evidence: [{ detail: transport.overflow }] };
    if (strays.length === 0) return { verdict: 'pass', message: 'every response matched a request by id' };
    return {
      verdict: 'fail',
      message: `${strays.length} response${strays.length === 1 ? '' : 's'} matched no request: ${strays[0]!.reason}`,
      evidence: strays.slice(0, 10).map(({ frame, reason }) => ({ detail: reason, frame: frame.message, direction: 'received' as const, line: frame.line, path: 'id' })),
    };
  },
};

/** stdio: the server's stdout carries JSON-RPC messages and nothing else (transports#stdio: MUST NOT write anything else). */
export const stdoutPurityCheck: ConformCheck = {
  id: 'stdio.stdout-purity',
  afterDeadline: true,
  title: 'stdout carries only JSON-RPC messages',
  section: 'basic/transports#stdio',
  transports: ['stdio'],
  async run({ transport }) {
    const pollution = transport?.pollution ?? [];
    if (pollution.length === 0) return { verdict: 'pass', message: 'every stdout line was a JSON-RPC message' };
    const first = pollution[0]!;
    return {
      verdict: 'fail',
      message: `${pollution.length} stdout line${pollution.length === 1 ? ' is' : 's are'} not JSON-RPC; first, line ${first.line}: ${first.reason} (log to stderr instead)`,
      // The same line printed by every start of the server is one finding to read, said once per start.
      evidence: pollution
        .slice(0, 10)
        .map((line) => ({ detail: `${line.reason}: ${JSON.stringify(line.text)}${(line.start ?? 1) > 1 ? ` (the server's start ${line.start})` : ''}`, line: line.line })),
    };
  },
};

/** stdio: closing the server's stdin ends it within the grace, without a signal (lifecycle#shutdown). */
export const shutdownCheck: ConformCheck = {
  id: 'stdio.shutdown',
  afterDeadline: true,
  title: 'The server exits when its stdin closes',
  section: 'basic/lifecycle#stdio',
  transports: ['stdio'],
  async run({ transport }) {
    if (!transport?.shutdown) return { verdict: 'skip', message: 'no stdio server to shut down' };
    const { outcome, afterMs, exit, graceMs } = await transport.shutdown();
    if (outcome === 'stdin-closed') return { verdict: 'pass', message: `exited ${afterMs} ms after stdin closed${exit ? ` (${exit})` : ''}` };
    if (outcome === 'already-exited')
      return { verdict: 'fail', message: `the server had already exited before the run ended${exit ? ` (${exit})` : ''}`, evidence: [{ detail: exit ?? 'exited early' }] };
    // The spec's shutdown is the client's ladder (stdin closed, then SIGTERM, then SIGKILL) with no MUST
    // on the server: needing SIGTERM is a warning; ignoring SIGTERM too leaves a host only SIGKILL.
    // A server still busy with a call toolrun gave up on at its own --timeout may need SIGTERM for
    // toolrun's reason, not its own: not judged. Ignoring SIGTERM too stays a failure.
    const givenUp = transport.givenUpCalls ?? 0;
    if (outcome === 'SIGTERM' && givenUp > 0)
      return {
        verdict: 'skip',
        message: `not judged: still running ${graceMs} ms after stdin closed, after toolrun gave up on ${givenUp} tool call${givenUp === 1 ? '' : 's'} of its own at --timeout (raise --timeout to judge it)`,
      };
    const verdict = outcome === 'SIGKILL' ? 'fail' : 'warn';
    const why = outcome === 'SIGKILL' ? `; it ignored SIGTERM too, so toolrun had to send SIGKILL` : `: toolrun had to send SIGTERM`;
    return { verdict, message: `still running ${graceMs} ms after stdin closed${why} (exit when stdin ends)`, evidence: [{ detail: `ended by ${outcome}` }] };
  },
};
