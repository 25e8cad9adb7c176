import type { DispatchBlocker } from "@ringback/client";
import type { DISPATCH_TEXTS } from "@ringback/client/texts";
import { DISPATCH_WORDS_MAX } from "@ringback/protocol";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** The sentence under the disabled dispatch button. */
export function blockerText(t: DispatchTexts, blocker: DispatchBlocker): string {
  switch (blocker) {
    case "checking":
      return t.blockerChecking;
    case "no-computer":
      return t.blockerNoComputer;
    case "computer-offline":
      return t.blockerComputerOffline;
    case "daemon-not-running":
      return t.blockerDaemonNotRunning;
    case "tracker-not-configured":
      return t.blockerTrackerNotConfigured;
    case "relay-unreachable":
      return t.blockerRelayUnreachable;
    case "unavailable":
      return t.blockerUnavailable;
    case "no-project":
      return t.blockerNoProject;
    case "no-agent":
      return t.blockerNoAgent;
    case "agent-offline":
      return t.blockerAgentOffline;
    case "no-issue":
      return t.blockerNoIssue;
    case "too-long":
      return t.blockerTooLong(DISPATCH_WORDS_MAX);
    case "empty":
      return t.blockerEmpty;
    case "images-preparing":
      return t.blockerImagesPreparing;
    case "image-failed":
      return t.blockerImageFailed;
  }
}
