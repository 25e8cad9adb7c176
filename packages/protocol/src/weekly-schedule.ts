const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Zones move their clocks twice a year at most: the offset is read at this step, and a change searched between. */
const OFFSET_SAMPLE_MS = 6 * 60 * MINUTE_MS;

/** A moment as a weekly wall clock reads it: the weekday (0 is Sunday) and the minute of the day (0-1439). */
export interface WallClock {
  readonly weekday: number;
  readonly minute: number;
}

/**
 * A state that follows a weekly wall clock (a phone's ring modes, a computer's away times): it is read off the
 * weekday and the minute of the day, and may change only at midnight and at `changeMinutes`.
 */
export interface WeeklySchedule<State> {
  /** The IANA zone its wall clock is read in; undefined for this runtime's own zone (the device's). */
  readonly timeZone: string | undefined;
  /** The minutes of the day (0-1440) at which the state may change besides midnight: its ranges' starts and ends. */
  readonly changeMinutes: Iterable<number>;
  /** The state at a wall-clock minute; two states are the same when `===` says so. */
  stateAt(clock: WallClock): State;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const floorToMinute = (ms: number) => Math.floor(ms / MINUTE_MS) * MINUTE_MS;

/** How far the zone's wall clock is ahead of UTC at a moment, in ms (whole minutes). */
function offsetAt(timeZone: string | undefined, atMs: number): number {
  if (timeZone === undefined) return -new Date(atMs).getTimezoneOffset() * MINUTE_MS;
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(atMs))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
  );
  return wall - floorToMinute(atMs);
}

function wallClockOf(wallMs: number): WallClock {
  const wall = new Date(wallMs);
  return { weekday: wall.getUTCDay(), minute: wall.getUTCHours() * 60 + wall.getUTCMinutes() };
}

/** The wall clock of a zone (undefined: this runtime's own) at a moment. */
export function wallClockAt(timeZone: string | undefined, at: Date): WallClock {
  return wallClockOf(at.getTime() + offsetAt(timeZone, at.getTime()));
}

/** From `startMs` on, until the next span's start, the zone's clock is `offsetMs` ahead of UTC. */
interface OffsetSpan {
  readonly startMs: number;
  readonly offsetMs: number;
}

/**
 * The zone's offsets from `fromMs` to `toMs` (both on a minute): read every six hours, and where two readings differ,
 * the minute the clocks moved found by halving the time between them.
 */
function offsetSpans(timeZone: string | undefined, fromMs: number, toMs: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [{ startMs: fromMs, offsetMs: offsetAt(timeZone, fromMs) }];
  for (let before = fromMs; before < toMs; ) {
    const after = Math.min(before + OFFSET_SAMPLE_MS, toMs);
    const current = spans[spans.length - 1]!.offsetMs;
    const offsetAfter = offsetAt(timeZone, after);
    if (offsetAfter !== current) {
      let low = before;
      let high = after;
      while (high - low > MINUTE_MS) {
        const middle = low + floorToMinute((high - low) / 2);
        if (offsetAt(timeZone, middle) === current) low = middle;
        else high = middle;
      }
      spans.push({ startMs: high, offsetMs: offsetAfter });
    }
    before = after;
  }
  return spans;
}

function offsetIn(spans: readonly OffsetSpan[], atMs: number): number {
  let offset = spans[0]!.offsetMs;
  for (const span of spans) if (span.startMs <= atMs) offset = span.offsetMs;
  return offset;
}

/**
 * Every moment from `fromMs` to `toMs` at which the state may change, in order: each time the wall clock reads
 * midnight or one of the change minutes (twice in an hour the clocks repeat), and each time the clocks move.
 */
function possibleChanges(
  schedule: WeeklySchedule<unknown>,
  spans: readonly OffsetSpan[],
  toMs: number,
): number[] {
  const minutes = [...new Set([0, ...schedule.changeMinutes])];
  const moments = new Set<number>();
  spans.forEach((span, index) => {
    const endMs = spans[index + 1]?.startMs ?? toMs + 1;
    if (index > 0) moments.add(span.startMs);
    const firstDay = Math.floor((span.startMs + span.offsetMs) / DAY_MS) * DAY_MS;
    for (let day = firstDay; day < endMs + span.offsetMs; day += DAY_MS) {
      for (const minute of minutes) {
        const at = day + minute * MINUTE_MS - span.offsetMs;
        if (at >= span.startMs && at < endMs) moments.add(at);
      }
    }
  });
  return [...moments].sort((a, b) => a - b);
}

/**
 * The changes of a weekly schedule from `from` to `to` (both read to the minute): each minute at which its state
 * differs from the minute before, in order. Computed from the days, the change minutes and the zone's offsets, not
 * minute by minute.
 */
function changesBetween<State>(schedule: WeeklySchedule<State>, from: Date, to: Date): number[] {
  const fromMs = floorToMinute(from.getTime());
  const toMs = floorToMinute(to.getTime());
  if (toMs <= fromMs) return [];
  const spans = offsetSpans(schedule.timeZone, fromMs, toMs);
  const stateAt = (atMs: number) => schedule.stateAt(wallClockOf(atMs + offsetIn(spans, atMs)));
  return possibleChanges(schedule, spans, toMs).filter(
    (at) => at > fromMs && at <= toMs && stateAt(at - MINUTE_MS) !== stateAt(at),
  );
}

/** The last minute after `since` and no later than `now` at which the state changed; null when it did not. */
export function lastWeeklyChange<State>(
  schedule: WeeklySchedule<State>,
  since: Date,
  now: Date,
): Date | null {
  const changes = changesBetween(schedule, since, now);
  const last = changes[changes.length - 1];
  return last === undefined ? null : new Date(last);
}

/** The first minute after `from` and no later than `until` at which the state changes; null when it does not. */
export function nextWeeklyChange<State>(
  schedule: WeeklySchedule<State>,
  from: Date,
  until: Date,
): Date | null {
  const first = changesBetween(schedule, from, until)[0];
  return first === undefined ? null : new Date(first);
}
