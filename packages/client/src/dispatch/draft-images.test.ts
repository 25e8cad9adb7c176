import { describe, expect, it } from "vitest";
import { imageFile, preparedImage } from "../../test/dispatch-test-doubles.js";
import { type DraftImage, DraftImages } from "./draft-images.js";
import type { PreparedImage } from "./prepared-image.js";

describe("the draft's images", () => {
  it("keeps image files only, in the order added, each prepared", async () => {
    let shown: readonly DraftImage[] = [];
    const images = new DraftImages(
      async (file) => preparedImage(file.name),
      (next) => {
        shown = next;
      },
    );
    await images.add([
      imageFile("a.png"),
      new File(["text"], "notes.txt", { type: "text/plain" }),
      imageFile("b.jpg", "image/jpeg"),
    ]);
    expect(shown.map((image) => [image.name, image.status])).toEqual([
      ["a.png", "ready"],
      ["b.jpg", "ready"],
    ]);
    expect(images.prepared().map((image) => image.name)).toEqual(["a.png", "b.jpg"]);
  });

  it("leaves out an image removed while it was still being prepared", async () => {
    let finish: (image: PreparedImage) => void = () => undefined;
    let shown: readonly DraftImage[] = [];
    const images = new DraftImages(
      () => new Promise((resolve) => (finish = resolve)),
      (next) => {
        shown = next;
      },
    );
    const adding = images.add([imageFile("slow.png")]);
    images.remove(shown[0]!.id);
    finish(preparedImage("slow.png"));
    await adding;
    expect(shown).toEqual([]);
    expect(images.prepared()).toEqual([]);
  });
});
