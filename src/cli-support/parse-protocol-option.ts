import { InvalidArgumentError } from 'commander';
import { isKnownProtocolSetting, PROTOCOL_SETTINGS } from '../protocol/protocol-era.js';

/** Commander argParser for --protocol: `auto` or a revision toolrun speaks. */
export function parseProtocolSetting(value: string): string {
  if (!isKnownProtocolSetting(value)) throw new InvalidArgumentError(`unknown protocol '${value}'; use ${PROTOCOL_SETTINGS.join(', ')}.`);
  return value;
}
