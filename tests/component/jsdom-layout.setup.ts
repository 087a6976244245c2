/**
 * jsdom lays nothing out, so it has no `Element.scrollIntoView`; reka's listboxes (the model picker in Settings) call
 * it on the highlighted option. A browser scrolls there; in jsdom there is nothing to scroll, so it does nothing.
 */
if (typeof Element !== 'undefined' && typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = function scrollIntoView() {}
}
