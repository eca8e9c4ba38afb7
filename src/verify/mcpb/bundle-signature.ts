/**
 * A signed bundle is the zip with a PKCS#7 block appended: `MCPB_SIG_V1`, a 4-byte length, the
 * signature, `MCPB_SIG_END` (anthropics/mcpb src/node/sign.ts@27083dcf93c4d1c589af6b539ec746e50d6068e7,
 * signMcpbFile / extractSignatureBlock). toolrun only finds the block and reads the zip before it:
 * verifying the chain needs the OS trust store (the toolkit's verifyMcpbFile runs OS tools), which a
 * check that must give the same answer on every machine does not use.
 */

const SIGNATURE_HEADER = Buffer.from('MCPB_SIG_V1', 'utf8');
const SIGNATURE_FOOTER = Buffer.from('MCPB_SIG_END', 'utf8');

export interface SplitBundle {
  /** The zip's bytes (the whole file when it is not signed). */
  zip: Buffer;
  signed: boolean;
}

/** As the toolkit's extractSignatureBlock: the last footer, and the header closest before it. */
export function splitSignature(file: Buffer): SplitBundle {
  if (!file.subarray(file.length - SIGNATURE_FOOTER.length).equals(SIGNATURE_FOOTER)) return { zip: file, signed: false };
  const header = file.lastIndexOf(SIGNATURE_HEADER, file.length - SIGNATURE_FOOTER.length);
  if (header < 0) return { zip: file, signed: false };
  return { zip: file.subarray(0, header), signed: true };
}
