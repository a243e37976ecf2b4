// @ts-check
'use strict';

/**
 * Items of several connector pages as one list, newest first: by `createdAt`, then `id` (both
 * descending), as each polling route orders its own page.
 * @template {{id: string, createdAt: number}} T
 * @param {T[]} items
 * @returns {T[]}
 */
function newestFirst(items) {
  return [...items].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

module.exports = { newestFirst };
