import type { DispatchController, DraftImage } from "@ringback/client";
import type { DISPATCH_TEXTS } from "@ringback/client/texts";
import { useEffect, useState } from "preact/hooks";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** Image files carried by a paste or a drop (browsers put them in `files`, some only in `items`). */
export function imageFilesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files);
  if (files.length > 0) return files.filter((file) => file.type.startsWith("image/"));
  return Array.from(data.items)
    .filter((item) => item.kind === "file" && item.type.startsWith("image/"))
    .flatMap((item) => item.getAsFile() ?? []);
}

/** The draft's images: thumbnails with remove buttons, and the picker. Paste and drop are taken by the form. */
export function ImageAttachments(props: {
  controller: DispatchController;
  images: readonly DraftImage[];
  t: DispatchTexts;
}) {
  const { controller, images, t } = props;
  return (
    <div class="dispatch-images" data-testid="dispatch-images">
      <ul>
        {images.map((image) => (
          <li key={image.id} data-testid="dispatch-image" data-status={image.status}>
            <Thumbnail image={image} />
            <span class="name">{image.name}</span>
            {image.status === "preparing" && <span class="hint">{t.imagePreparing}</span>}
            {image.prepared?.isConverted && <span class="hint">{t.imageConverted}</span>}
            {image.problem && <span class="error">{image.problem}</span>}
            <button type="button" data-testid="remove-image" onClick={() => controller.removeImage(image.id)}>
              {t.removeImage}
            </button>
          </li>
        ))}
      </ul>
      <label class="picker">
        {t.addImages}
        <input
          type="file"
          accept="image/*"
          multiple
          data-testid="image-picker"
          onChange={(event) => {
            const input = event.currentTarget;
            controller.addImages(Array.from(input.files ?? [])).catch(() => undefined);
            input.value = "";
          }}
        />
      </label>
      <p class="hint">{t.imagesHint}</p>
    </div>
  );
}

function Thumbnail({ image }: { image: DraftImage }) {
  const [url, setUrl] = useState<string | null>(null);
  const blob = image.prepared?.blob ?? null;
  useEffect(() => {
    if (!blob || blob.size === 0) return;
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return url ? <img src={url} alt="" /> : <span class="thumb-placeholder" />;
}
