/**
 * jsdom gives every document it makes a CSS selector engine (@asamuzakjp/dom-selector) whose constructor adds nine
 * listeners to the window (for :focus-visible) and never removes them. DOMPurify parses each input into a new
 * document, so after a few thousand sanitised strings the window holds tens of thousands of listeners that keep every
 * parsed document alive, and each new one is checked against all of them: the XSS corpus tests slowed down
 * quadratically. The documents DOMPurify, templates and DOMParser make are inert (no events reach them), so their
 * engines' listeners are dropped here; the page document's own engine registered before this file runs.
 * (The engine holds the window object jsdom uses inside, not `document.defaultView`, hence the prototype.)
 */
const SELECTOR_ENGINE_HANDLERS = new Set(['_handleFocusEvent', '_handleKeyboardEvent', '_handleMouseEvent'])

// A file of this project may ask for the node environment (no DOM at all): nothing to do there.
if (typeof document !== 'undefined') {
  const eventTarget = document.defaultView!.EventTarget.prototype
  const addEventListener = eventTarget.addEventListener
  eventTarget.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
    if (typeof listener === 'function' && SELECTOR_ENGINE_HANDLERS.has(listener.name)) return
    return addEventListener.call(this, type, listener, options)
  }
}
