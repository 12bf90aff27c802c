// The memory budget (what data may occupy memory) and the memory limit's default and syntax.
export { MemoryBudget } from './memory-budget.js';
export { sizeClass } from './buffer-pool.js';
export type { ColumnMemory } from './buffer-pool.js';
export type { Evictable, MemoryFigures } from './memory-budget.js';
export { defaultMemoryLimit, parseBytes } from './memory-limit.js';
export { ReadRing, RING_SHARE } from './read-ring.js';
