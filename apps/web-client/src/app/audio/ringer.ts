import { CLASSIC_TONE, type Ringer, type Tone, toneBursts } from "@ringback/client";

/** Tones are scheduled this far ahead, topped up this often: smooth even when timers are throttled. */
const SCHEDULE_AHEAD_MS = 2_000;
const SCHEDULE_EVERY_MS = 500;
/** Each sine wave's loudness; two frequencies together stay well below clipping. */
const TONE_GAIN = 0.15;
/** Fade in and out so a burst does not click. */
const FADE_S = 0.01;

const FALLBACK_TONE: Tone = CLASSIC_TONE;

/** A ringer on WebAudio: oscillators scheduled on the audio clock, so the cadence is exact. */
export function createWebAudioRinger(): Ringer {
  const AudioContextClass = typeof AudioContext === "undefined" ? undefined : AudioContext;
  let context: AudioContext | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let nodes: OscillatorNode[] = [];
  let fileSource: AudioBufferSourceNode | null = null;
  let playing = 0;
  const decoded = new Map<string, Promise<AudioBuffer>>();

  const audio = (): AudioContext | null => {
    if (!context && AudioContextClass) context = new AudioContextClass();
    return context;
  };

  return {
    get isSoundBlocked() {
      return context?.state !== "running";
    },
    async unlock() {
      const ctx = audio();
      if (!ctx) return false;
      try {
        await ctx.resume();
      } catch {
        return false;
      }
      return ctx.state === "running";
    },
    start(sound) {
      this.stop();
      const ctx = audio();
      if (!ctx || sound.kind === "silent") return;
      // Without a gesture this stays suspended; the page then shows the ringing screen and a notification.
      ctx.resume().catch(() => undefined);
      if (sound.kind === "file") {
        const turn = playing;
        if (!decoded.has(sound.id)) decoded.set(sound.id, ctx.decodeAudioData(sound.data.slice(0)));
        decoded
          .get(sound.id)!
          .then((buffer) => {
            if (turn === playing) fileSource = loopBuffer(ctx, buffer);
          })
          .catch(() => {
            // An undecodable file rings with the classic tone rather than not at all.
            decoded.delete(sound.id);
            if (turn === playing) this.start({ kind: "tone", tone: FALLBACK_TONE });
          });
        return;
      }
      const scheduleAhead = toneScheduler(ctx, sound.tone);
      const schedule = () => {
        nodes = scheduleAhead();
      };
      schedule();
      timer = setInterval(schedule, SCHEDULE_EVERY_MS);
    },
    stop() {
      playing += 1;
      try {
        fileSource?.stop();
      } catch {
        // Not started yet.
      }
      fileSource = null;
      clearInterval(timer);
      timer = undefined;
      for (const node of nodes) {
        try {
          node.stop();
        } catch {
          // Already stopped.
        }
      }
      nodes = [];
    },
  };
}

/** Plays a decoded ringtone file in a loop until it is stopped. */
function loopBuffer(ctx: AudioContext, buffer: AudioBuffer): AudioBufferSourceNode {
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.loop = true;
  source.connect(ctx.destination);
  source.start();
  return source;
}

/**
 * Each call schedules the tone's bursts up to SCHEDULE_AHEAD_MS past the audio clock's now (from where the last call
 * left off) and returns the oscillators still to play, for a stop to cut.
 */
function toneScheduler(ctx: AudioContext, tone: Tone): () => OscillatorNode[] {
  const startedAt = ctx.currentTime;
  let scheduledUntilMs = 0;
  let nodes: OscillatorNode[] = [];
  return () => {
    const elapsedMs = (ctx.currentTime - startedAt) * 1000;
    const untilMs = elapsedMs + SCHEDULE_AHEAD_MS;
    for (const burst of toneBursts(tone, scheduledUntilMs, untilMs)) {
      nodes.push(...playBurst(ctx, tone, startedAt + burst.startMs / 1000, startedAt + burst.endMs / 1000));
    }
    scheduledUntilMs = untilMs;
    nodes = nodes.filter((node) => (node as OscillatorNode & { isDone?: boolean }).isDone !== true);
    return nodes;
  };
}

function playBurst(ctx: AudioContext, tone: Tone, startS: number, endS: number): OscillatorNode[] {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0, startS);
  gain.gain.linearRampToValueAtTime(TONE_GAIN, startS + FADE_S);
  gain.gain.setValueAtTime(TONE_GAIN, Math.max(startS + FADE_S, endS - FADE_S));
  gain.gain.linearRampToValueAtTime(0, endS);
  gain.connect(ctx.destination);
  return tone.frequenciesHz.map((frequency) => {
    const oscillator = ctx.createOscillator();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    oscillator.connect(gain);
    oscillator.start(Math.max(startS, ctx.currentTime));
    oscillator.stop(endS);
    oscillator.onended = () => {
      (oscillator as OscillatorNode & { isDone?: boolean }).isDone = true;
      oscillator.disconnect();
    };
    return oscillator;
  });
}
