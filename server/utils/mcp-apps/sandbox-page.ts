/**
 * The sandbox page MCP Apps are framed in, served on the sandbox origin (never the app's): a relay that puts the
 * app's HTML into an inner `srcdoc` frame sandboxed to scripts only (an opaque origin: no storage, no cookies, no
 * parent, no top navigation, no popups) and passes JSON-RPC messages between it and the one page that may embed
 * it (`host`), and nothing else. The page writes nothing from the request into its HTML.
 */
const RELAY = `(() => {
  const host = new URLSearchParams(location.search).get('host');
  let inner;
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === host) {
      const data = event.data;
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner || !data.params || typeof data.params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts');
        inner.setAttribute('title', 'App');
        inner.srcdoc = data.params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner && event.source === inner.contentWindow) window.parent.postMessage(event.data, host);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, host);
})();`

export const MCP_APP_SANDBOX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%;color-scheme:normal}</style>
</head><body><script>${RELAY}</script></body></html>`
