/**
 * Where the vendors' APIs are. Each can be moved by the environment (as DAEMON_TRACKER_API_URL moves the tracker):
 * a test or the bench points them at stand-ins on 127.0.0.1. ntfy needs none: its server is the user's setting.
 */
export interface ChannelEndpoints {
  readonly pushover: string;
  readonly telegram: string;
  readonly twilio: string;
}

const VENDOR_ENDPOINTS: ChannelEndpoints = {
  pushover: "https://api.pushover.net",
  telegram: "https://api.telegram.org",
  twilio: "https://api.twilio.com",
};

export function channelEndpoints(env: NodeJS.ProcessEnv): ChannelEndpoints {
  return {
    pushover: env.RINGBACK_PUSHOVER_API_URL || VENDOR_ENDPOINTS.pushover,
    telegram: env.RINGBACK_TELEGRAM_API_URL || VENDOR_ENDPOINTS.telegram,
    twilio: env.RINGBACK_TWILIO_API_URL || VENDOR_ENDPOINTS.twilio,
  };
}

/** `path` under `base`, whether or not base ends in `/`. */
export function endpointUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}${path}`);
}
