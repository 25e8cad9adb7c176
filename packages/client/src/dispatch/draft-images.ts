import type { ImagePreparer, PreparedImage } from "./prepared-image.js";

/** An image of the draft as the screen shows it; `prepared` once read (and converted when needed). */
export interface DraftImage {
  readonly id: string;
  readonly name: string;
  readonly status: "preparing" | "ready" | "failed";
  readonly prepared: PreparedImage | null;
  readonly problem: string | null;
}

/** The draft's images from the picker, a paste or a drop, each prepared in the page as it arrives. */
export class DraftImages {
  #images: DraftImage[] = [];
  #nextId = 1;

  constructor(
    private readonly prepare: ImagePreparer,
    private readonly onChange: (images: readonly DraftImage[]) => void,
  ) {}

  /** Adds the image files (anything else is left out) and settles when each is prepared or has failed. */
  async add(files: readonly File[]): Promise<void> {
    const added = files
      .filter((file) => file.type.startsWith("image/"))
      .map((file) => ({ file, image: this.#newImage(file.name) }));
    if (added.length === 0) return;
    this.#images = [...this.#images, ...added.map((entry) => entry.image)];
    this.onChange(this.#images);
    await Promise.all(
      added.map(async ({ file, image }) => {
        try {
          const prepared = await this.prepare(file);
          this.#replace(image.id, { status: "ready", prepared, name: prepared.name });
        } catch (error) {
          this.#replace(image.id, {
            status: "failed",
            problem: error instanceof Error ? error.message : String(error),
          });
        }
      }),
    );
  }

  remove(id: string): void {
    this.#images = this.#images.filter((image) => image.id !== id);
    this.onChange(this.#images);
  }

  clear(): void {
    this.#images = [];
    this.onChange(this.#images);
  }

  /** The prepared images in the order they were added. */
  prepared(): PreparedImage[] {
    return this.#images.flatMap((image) => (image.prepared ? [image.prepared] : []));
  }

  #newImage(name: string): DraftImage {
    const id = `image-${this.#nextId}`;
    this.#nextId += 1;
    return { id, name: name || "image", status: "preparing", prepared: null, problem: null };
  }

  #replace(id: string, change: Partial<DraftImage>): void {
    // An image removed while it was being prepared stays removed.
    if (!this.#images.some((image) => image.id === id)) return;
    this.#images = this.#images.map((image) => (image.id === id ? { ...image, ...change } : image));
    this.onChange(this.#images);
  }
}
