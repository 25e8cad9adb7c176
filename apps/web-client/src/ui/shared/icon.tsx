/** Line icons on a 24 px grid, drawn with the text's colour; each stands beside a label, never alone. */
const PATHS = {
  home: "M3 11l9-8 9 8v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z",
  phone: "M5 3h4l2 5-2.5 1.5a11 11 0 0 0 6 6L16 13l5 2v4a2 2 0 0 1-2 2A17 17 0 0 1 3 5a2 2 0 0 1 2-2z",
  send: "M22 2L11 13M22 2l-7 20-4-9-9-4z",
  settings:
    "M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9L7 7M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
  reply: "M9 14L4 9l5-5M4 9h10a6 6 0 0 1 6 6v5",
  "speaker-on": "M11 5L6 9H3v6h3l5 4zM15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13",
  "speaker-off": "M11 5L6 9H3v6h3l5 4zM22 9l-6 6M16 9l6 6",
  back: "M11 17l-5-5 5-5M18 17l-5-5 5-5",
  skip: "M13 17l5-5-5-5M6 17l5-5-5-5",
  again: "M3 12a9 9 0 1 0 3-6.7M3 4v5h5",
} as const;

export type IconName = keyof typeof PATHS | "hang-up";

export function Icon({ name }: { readonly name: IconName }) {
  // Hang up is the handset turned down, as on every phone.
  const path = name === "hang-up" ? PATHS.phone : PATHS[name];
  return (
    <svg
      class="icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={path} transform={name === "hang-up" ? "rotate(135 12 12)" : undefined} />
    </svg>
  );
}
