// A virtualised list or grid: only the rows in (and just around) the visible part of the scroller are in the
// DOM, so 100,000 albums or songs scroll as smoothly as 100. Items are fetched a page at a time as they come
// into view; each row is absolutely placed in a spacer as tall as all the rows. Screen readers still learn
// the whole size from aria-setsize/aria-posinset.
import { h } from './dom.js';

export class VirtualList {
  /**
   * scroller: the element that scrolls (the page's <main>); rowHeight: px; minColumnWidth: px for a grid
   * (0: one column); count: how many items (setCount when known later); load(offset, limit) → items;
   * render(item, index) → element; label: what the list is, for screen readers; growable: the count is a
   * guess (a full last page makes room for another).
   */
  constructor({ scroller, rowHeight, minColumnWidth = 0, count = 0, pageSize = 120, load, render, label, growable = false }) {
    Object.assign(this, { scroller, rowHeight, minColumnWidth, count, pageSize, load, render, growable });
    this.pages = new Map();     // page number → items, or a promise while it loads
    this.shown = new Map();     // index → element in the DOM
    this.columns = 1;
    this.element = h('div', { class: 'virtual', role: 'list', 'aria-label': label });
    this.onScroll = () => {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.update(); });
    };
    scroller.addEventListener('scroll', this.onScroll, { passive: true });
    this.resize = new ResizeObserver(() => this.update(true));
    this.resize.observe(scroller);
  }

  /** Forgets every loaded item (the data changed) and draws the visible rows again. */
  refresh(count = this.count) {
    this.pages.clear();
    this.count = count;
    this.update(true);
  }

  /** The element drawn for `index`, when it is in view. */
  elementAt(index) { return this.shown.get(index); }

  setCount(count) { if (count !== this.count) { this.count = count; this.update(true); } }

  destroy() {
    this.scroller.removeEventListener('scroll', this.onScroll);
    this.resize.disconnect();
    cancelAnimationFrame(this.frame);
  }

  /** The item at `index` when its page has loaded. */
  item(index) {
    const page = this.pages.get(Math.floor(index / this.pageSize));
    return Array.isArray(page) ? page[index % this.pageSize] : undefined;
  }

  fetchPage(number) {
    if (this.pages.has(number)) return;
    const loaded = this.load(number * this.pageSize, this.pageSize);
    // Items already in memory (an album, the queue) are drawn at once: no placeholder, no second pass.
    if (Array.isArray(loaded)) { this.pages.set(number, loaded); return; }
    const loading = Promise.resolve(loaded).then(items => {
      this.pages.set(number, items || []);
      // A shorter page than asked is the end; a full last page means there is more (the count was a guess or
      // has changed since).
      const got = (items || []).length, end = number * this.pageSize + got;
      if (got < this.pageSize) this.setCount(Math.min(this.count, end));
      else if (end >= this.count && this.growable) this.setCount(end + this.pageSize);
      for (const [index, element] of this.shown) {
        if (Math.floor(index / this.pageSize) === number) { this.shown.delete(index); element.remove(); }
      }
      this.update();
    }, () => this.pages.delete(number));
    this.pages.set(number, loading);
  }

  update(relayout = false) {
    if (!this.element.isConnected) return;
    const width = this.element.clientWidth || this.scroller.clientWidth;
    const columns = this.minColumnWidth ? Math.max(1, Math.floor(width / this.minColumnWidth)) : 1;
    if (columns !== this.columns || relayout) {
      this.columns = columns;
      for (const element of this.shown.values()) element.remove();
      this.shown.clear();
    }
    const rows = Math.ceil(this.count / columns);
    this.element.style.height = `${rows * this.rowHeight}px`;
    // Where the list starts inside the scroller's content, whatever sits above it.
    const top = this.element.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top;
    const visibleTop = -top, visibleBottom = visibleTop + this.scroller.clientHeight;
    const firstRow = Math.max(0, Math.floor(visibleTop / this.rowHeight) - 2);
    const lastRow = Math.min(rows, Math.ceil(visibleBottom / this.rowHeight) + 2);
    const first = firstRow * columns, last = Math.min(this.count, lastRow * columns);
    for (const [index, element] of this.shown) {
      if (index < first || index >= last) { element.remove(); this.shown.delete(index); }
    }
    for (let index = first; index < last; index++) {
      if (this.shown.has(index)) continue;
      if (this.item(index) === undefined) this.fetchPage(Math.floor(index / this.pageSize));
      const item = this.item(index);
      const element = item === undefined ? h('div', { class: 'placeholder', 'aria-busy': 'true' }) : this.render(item, index);
      element.setAttribute('role', 'listitem');
      element.setAttribute('aria-setsize', this.count);
      element.setAttribute('aria-posinset', index + 1);
      element.classList.add('row');
      const column = index % columns, row = Math.floor(index / columns);
      Object.assign(element.style, { top: `${row * this.rowHeight}px`, left: `${(column * 100) / columns}%`,
                                     width: `${100 / columns}%`, height: `${this.rowHeight}px` });
      this.element.append(element);
      this.shown.set(index, element);
    }
  }
}
