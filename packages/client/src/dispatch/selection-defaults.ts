/** Which of the listed items is selected after a re-read: the current one, else the last used, else a default. */
export function keepOrDefault<T extends { readonly id: string }>(
  items: readonly T[],
  current: string | null,
  lastUsed: string | null,
  preferred: (item: T) => boolean = () => true,
): string | null {
  const has = (id: string | null) => id !== null && items.some((item) => item.id === id);
  if (has(current)) return current;
  if (has(lastUsed)) return lastUsed;
  return (items.find(preferred) ?? items[0])?.id ?? null;
}
