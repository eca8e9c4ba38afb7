import { readlinkSync } from 'node:fs';
import type { ToolDefinition } from '../registry/tool-types.js';
import { ToolInputError } from './tool-input-error.js';

export const getCurrentDatetimeDefinition: ToolDefinition = {
  name: 'get_current_datetime',
  description: 'Current date and time as ISO 8601, in the local timezone or an IANA timezone given as `timezone`.',
  parameters: {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: "IANA timezone, e.g. 'Europe/Paris' or 'UTC'. Defaults to the system's." },
    },
  },
};

export interface CurrentDatetime {
  /** ISO 8601 with the zone's offset, e.g. 2026-11-21T15:04:05.123+01:00. */
  datetime: string;
  timezone: string;
  utc_offset: string;
  /** The same instant in UTC. */
  utc: string;
  unix_ms: number;
  /** A human reading, e.g. "Saturday, November 21, 2026 at 3:04:05 PM". */
  formatted: string;
}

/** Wall-clock fields of an instant in some zone. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
  offsetMinutes: number;
}

export async function getCurrentDatetime(args: { timezone?: string }, now: Date = new Date()): Promise<CurrentDatetime> {
  // The local zone is read from the OS without Intl: the first Intl call loads ICU's zone data
  // (~12 ms), a fifth of toolrun's whole startup. Intl is used only when a zone is asked for.
  const wall = args.timezone === undefined ? localWallClock(now) : zonedWallClock(now, args.timezone);
  const timezone = args.timezone === undefined ? localZoneName() : canonicalZoneName(args.timezone);
  const offset = formatOffset(wall.offsetMinutes);
  const date = `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
  const time = `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}.${String(now.getUTCMilliseconds()).padStart(3, '0')}`;
  return {
    datetime: `${date}T${time}${wall.offsetMinutes === 0 ? 'Z' : offset}`,
    timezone,
    utc_offset: offset,
    utc: now.toISOString(),
    unix_ms: now.getTime(),
    formatted: formatHuman(wall),
  };
}

function localWallClock(now: Date): WallClock {
  return {
    year: now.getFullYear(),
    month: now.getMonth() + 1,
    day: now.getDate(),
    hour: now.getHours(),
    minute: now.getMinutes(),
    second: now.getSeconds(),
    weekday: now.getDay(),
    offsetMinutes: -now.getTimezoneOffset(),
  };
}

function zonedWallClock(now: Date, timezone: string): WallClock {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      timeZoneName: 'longOffset',
    }).formatToParts(now);
  } catch {
    throw new ToolInputError(`Unknown timezone '${timezone}'. Use an IANA name such as 'Europe/Paris', 'America/New_York' or 'UTC'.`);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const offsetMatch = /GMT([+-])(\d{2}):(\d{2})/.exec(part('timeZoneName'));
  const offsetMinutes = offsetMatch ? (offsetMatch[1] === '-' ? -1 : 1) * (Number(offsetMatch[2]) * 60 + Number(offsetMatch[3])) : 0;
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    hour: Number(part('hour')),
    minute: Number(part('minute')),
    second: Number(part('second')),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday')),
    offsetMinutes,
  };
}

function canonicalZoneName(timezone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
}

/** $TZ, else the zoneinfo file /etc/localtime points to, else what Intl says. */
function localZoneName(): string {
  const fromEnv = process.env.TZ;
  if (fromEnv && !fromEnv.startsWith(':') && /^[A-Za-z_+\-/0-9]+$/.test(fromEnv)) return fromEnv;
  try {
    const target = readlinkSync('/etc/localtime');
    const index = target.indexOf('zoneinfo/');
    if (index !== -1) return target.slice(index + 'zoneinfo/'.length);
  } catch {
    // Not a link (or not Linux/macOS): ask Intl.
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function formatHuman(wall: WallClock): string {
  const hour12 = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
  const meridiem = wall.hour < 12 ? 'AM' : 'PM';
  return `${WEEKDAYS[wall.weekday]}, ${MONTHS[wall.month - 1]} ${wall.day}, ${wall.year} at ${hour12}:${pad(wall.minute)}:${pad(wall.second)} ${meridiem}`;
}

function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
