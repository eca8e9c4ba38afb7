/**
 * The sections of the MCP specification that toolrun's checks come from, so each finding can say
 * which rule it applies (SPEC §9: "each finding cites the spec section"). The tools rules are the
 * 2025-11-25 text; the 2026-07-28 revision keeps them.
 */
export const SPEC_REVISION = '2025-11-25';

export const SPEC_SECTION = {
  tool: 'server/tools § Tool',
  toolNames: 'server/tools § Tool Names',
  outputSchema: 'server/tools § Output Schema',
  structuredContent: 'server/tools § Structured Content',
  toolResult: 'server/tools § Tool Result',
  errorHandling: 'server/tools § Error Handling',
} as const;

export type SpecSection = (typeof SPEC_SECTION)[keyof typeof SPEC_SECTION];

/** How a finding names its rule: `MCP 2025-11-25 server/tools § Tool Names`. */
export function citeSpec(section: SpecSection): string {
  return `MCP ${SPEC_REVISION} ${section}`;
}
