import type { ServerSpec } from '../config/resolve-server.js';
import type { OtlpReceiver } from '../trace/otlp-receiver.js';
import { parseTraceParent } from '../trace/trace-context.js';
import type { ConformContext } from './check-types.js';
import type { WireProbeChannel } from './probe-channel.js';

/** `mcp conform --trace`: the server pointed at toolrun's OTLP receiver, and what the trace check reads of the run. */

/**
 * A stdio server started for --trace exports to the receiver: OTEL_EXPORTER_OTLP_ENDPOINT (and the
 * traces-only variant, which would win over it), the OTLP exporter chosen, and a short batch delay.
 */
export function withOtlpEndpoint(spec: ServerSpec, url: string): ServerSpec {
  if (spec.transport !== 'stdio') return spec;
  return {
    ...spec,
    env: { ...spec.env, OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/v1/traces`, OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_SCHEDULE_DELAY: '200' },
  };
}

export function conformTrace(receiver: OtlpReceiver, traceId: string, channels: WireProbeChannel[], headerSpans: Set<string>, waitMs: number): NonNullable<ConformContext['trace']> {
  return {
    traceId,
    headerSpans,
    waitForSpans: () => receiver.waitForSpans(waitMs),
    spans: () => receiver.spans,
    refused: receiver.refused,
    sent: () => {
      const sent = new Map<string, { method: string; id: unknown }>();
      for (const channel of channels) {
        for (const frame of channel.frames) {
          const message = frame.message as { id?: unknown; method?: unknown; params?: { _meta?: { traceparent?: unknown } } };
          const traceparent = message?.params?._meta?.traceparent;
          if (frame.direction !== 'sent' || typeof message.method !== 'string' || typeof traceparent !== 'string') continue;
          const parsed = parseTraceParent(traceparent);
          if (!('invalid' in parsed)) sent.set(parsed.parentId, { method: message.method, id: message.id });
        }
      }
      return sent;
    },
  };
}
