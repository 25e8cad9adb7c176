import { IMAGE_CONVERSION_MAX_BYTES, IMAGE_CONVERSION_MAX_EDGE_PX } from "@ringback/protocol";

/** Image types the tracker shows as they are; any other image is converted to JPEG first. */
export const UPLOADABLE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

/** The type a converted image is uploaded as. */
export const CONVERTED_IMAGE_TYPE = "image/jpeg";

export interface ImageFacts {
  /** The file's MIME type as the browser reports it. */
  readonly type: string;
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Spec (Dispatch screen): an image over 1.5 MB, with a long edge above 2048, or not PNG / JPEG / WebP / GIF is
 * converted locally to JPEG. Exactly at a threshold it is left as it is.
 */
export function needsConversion(image: ImageFacts): boolean {
  return (
    image.bytes > IMAGE_CONVERSION_MAX_BYTES ||
    Math.max(image.width, image.height) > IMAGE_CONVERSION_MAX_EDGE_PX ||
    !(UPLOADABLE_IMAGE_TYPES as readonly string[]).includes(image.type.toLowerCase())
  );
}

/**
 * The size a converted image is drawn at: long edge 2048, the other edge in proportion. A smaller image converted
 * only for its type or its bytes keeps its size (enlarging it would add bytes and no detail).
 */
export function convertedSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, IMAGE_CONVERSION_MAX_EDGE_PX / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** A converted file keeps its name with the JPEG extension: "screen.png" -> "screen.jpg". */
export function convertedName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, "");
  return `${base || "image"}.jpg`;
}
