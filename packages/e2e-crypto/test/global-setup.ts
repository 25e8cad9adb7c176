import { ensureDist } from "../scripts/ensure-dist.ts";

export default function setup(): void {
  ensureDist();
}
