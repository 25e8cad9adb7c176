import {
  blobToBase64,
  CONVERTED_IMAGE_TYPE,
  convertedName,
  convertedSize,
  needsConversion,
  type PreparedImage,
} from "@ringback/client";

/** JPEG quality of a converted image: screenshots stay legible, photos stay well under the size threshold. */
const CONVERTED_JPEG_QUALITY = 0.85;

class UnreadableImageError extends Error {
  override readonly name = "UnreadableImageError";
}

/**
 * Decodes the file in the page (`createImageBitmap`), keeps it as it is when the conversion rule allows, else draws
 * it on a canvas (an `OffscreenCanvas` where there is one) and encodes a JPEG with long edge 2048.
 */
export async function prepareImageForUpload(file: File): Promise<PreparedImage> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (cause) {
    throw new UnreadableImageError(`${file.name || "The image"} could not be read as an image.`, { cause });
  }
  try {
    const name = file.name || "image";
    const facts = { type: file.type, bytes: file.size, width: bitmap.width, height: bitmap.height };
    if (!needsConversion(facts)) {
      return {
        name,
        type: file.type,
        bytes: file.size,
        data: await blobToBase64(file),
        isConverted: false,
        blob: file,
      };
    }
    const blob = await encodeJpeg(bitmap, convertedSize(bitmap.width, bitmap.height));
    return {
      name: convertedName(name),
      type: CONVERTED_IMAGE_TYPE,
      bytes: blob.size,
      data: await blobToBase64(blob),
      isConverted: true,
      blob,
    };
  } finally {
    bitmap.close();
  }
}

async function encodeJpeg(bitmap: ImageBitmap, size: { width: number; height: number }): Promise<Blob> {
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext("2d");
    if (!context) throw new UnreadableImageError("This browser cannot draw images.");
    draw(context, bitmap, size);
    return canvas.convertToBlob({ type: CONVERTED_IMAGE_TYPE, quality: CONVERTED_JPEG_QUALITY });
  }
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new UnreadableImageError("This browser cannot draw images.");
  draw(context, bitmap, size);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new UnreadableImageError("The image could not be encoded."))),
      CONVERTED_IMAGE_TYPE,
      CONVERTED_JPEG_QUALITY,
    ),
  );
}

function draw(
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  bitmap: ImageBitmap,
  size: { width: number; height: number },
): void {
  // JPEG has no transparency: transparent pixels become white rather than black.
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
}
