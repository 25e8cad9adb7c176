import { IMAGE_CONVERSION_MAX_BYTES, IMAGE_CONVERSION_MAX_EDGE_PX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { convertedName, convertedSize, needsConversion } from "./image-conversion-rule.js";

const small = { type: "image/png", bytes: 200_000, width: 800, height: 600 };

describe("which images are converted to JPEG before upload", () => {
  it("leaves a small PNG, JPEG, WebP or GIF as it is", () => {
    for (const type of ["image/png", "image/jpeg", "image/webp", "image/gif", "IMAGE/PNG"])
      expect(needsConversion({ ...small, type })).toBe(false);
  });

  it("converts an image over 1.5 MB, and not one of exactly 1.5 MB", () => {
    expect(IMAGE_CONVERSION_MAX_BYTES).toBe(1.5 * 1024 * 1024);
    expect(needsConversion({ ...small, bytes: IMAGE_CONVERSION_MAX_BYTES + 1 })).toBe(true);
    expect(needsConversion({ ...small, bytes: IMAGE_CONVERSION_MAX_BYTES })).toBe(false);
  });

  it("converts an image whose long edge is above 2048, whichever edge is long", () => {
    expect(IMAGE_CONVERSION_MAX_EDGE_PX).toBe(2048);
    expect(needsConversion({ ...small, width: 2049, height: 100 })).toBe(true);
    expect(needsConversion({ ...small, width: 100, height: 2049 })).toBe(true);
    expect(needsConversion({ ...small, width: 2048, height: 2048 })).toBe(false);
  });

  it("converts any other image type, however small", () => {
    for (const type of ["image/heic", "image/bmp", "image/tiff", "image/svg+xml", ""])
      expect(needsConversion({ ...small, type })).toBe(true);
  });
});

describe("the size and name of a converted image", () => {
  it("scales the long edge down to 2048 and keeps the proportions", () => {
    expect(convertedSize(4096, 3072)).toEqual({ width: 2048, height: 1536 });
    expect(convertedSize(1000, 5000)).toEqual({ width: 410, height: 2048 });
  });

  it("does not enlarge an image converted only for its type or bytes", () => {
    expect(convertedSize(640, 480)).toEqual({ width: 640, height: 480 });
  });

  it("gives the file a .jpg name", () => {
    expect(convertedName("screen.png")).toBe("screen.jpg");
    expect(convertedName("photo.heic")).toBe("photo.jpg");
    expect(convertedName("pasted")).toBe("pasted.jpg");
    expect(convertedName(".png")).toBe("image.jpg");
  });
});
