import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The page `webimage serve --playground` serves at `/`: a form that builds an imgproxy URL (source, size,
/// resizing type, gravity, crop, format, quality), fetches it from this server and shows the result image,
/// its status, `Content-Type`, byte size, dimensions and time, and the URL to use.
///
/// The page is self-contained (inline CSS and JavaScript, nothing fetched from elsewhere, so it works offline)
/// and its `Content-Security-Policy` allows only this server, `blob:` images and the page's own inline script
/// and style, by hash. It never puts server text into HTML: everything it shows goes through `textContent`.
///
/// Query parameters pre-fill the form (`src`, `w`, `h`, `rt`, `g`, `cw`, `ch`, `format`, `q`, `sig`) and
/// `auto=1` runs it, so a link can share a try: `/?src=https://example.com/a.jpg&w=300&format=webp&auto=1`.
///
/// When the server checks signatures the page cannot sign (the key stays on the server): the server renders
/// that into the page (`data-signing="on"`), which then says so, shows the path to sign, and takes a pasted
/// signature.
enum PlaygroundPage {
    /// The page's HTML; `signing` says whether the server checks signatures.
    static func html(signing: Bool) -> String {
        """
        <!doctype html>
        <html lang="en" data-signing="\(signing ? "on" : "off")">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>webimage serve · playground</title>
        <style>\(style)</style>
        </head>
        \(body)
        <script>\(script)</script>
        </html>

        """
    }

    /// The `Content-Security-Policy`: nothing but this server for requests, `blob:` for the fetched result
    /// image, and only the page's own inline style and script (by their SHA-256).
    static let contentSecurityPolicy = [
        "default-src 'none'",
        "connect-src 'self'",
        "img-src 'self' blob:",
        "style-src '\(hash(style))'",
        "script-src '\(hash(script))'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The page as a response: `text/html`, never cached, with its `Content-Security-Policy`.
    static func response(signing: Bool) -> Response {
        let html = html(signing: signing)
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentLength: "\(html.utf8.count)",
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A CSP source expression for inline text: `sha256-` and the base64 of its SHA-256.
    static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    /// The form and the result panel.
    static let body = #"""
        <body>
        <header>
          <h1>webimage serve <span>playground</span></h1>
          <p>Build an imgproxy URL, fetch it from this server and see what comes back.</p>
        </header>
        <main>
        <form id="form" autocomplete="off" novalidate>
          <label class="wide">Source URL
            <input id="src" type="url" placeholder="https://example.com/photo.jpg" spellcheck="false">
          </label>
          <div class="row">
            <label>Width <input id="w" type="number" min="0" step="1" placeholder="auto"></label>
            <label>Height <input id="h" type="number" min="0" step="1" placeholder="auto"></label>
          </div>
          <div class="row">
            <label>Resizing type
              <select id="rt">
                <option>fit</option><option>fill</option><option>fill-down</option><option>force</option><option>auto</option>
              </select>
            </label>
            <label>Gravity
              <select id="g">
                <option value="ce">centre</option>
                <option value="no">north</option><option value="so">south</option>
                <option value="ea">east</option><option value="we">west</option>
                <option value="noea">north-east</option><option value="nowe">north-west</option>
                <option value="soea">south-east</option><option value="sowe">south-west</option>
                <option value="sm">smart</option>
              </select>
            </label>
          </div>
          <fieldset>
            <legend>Crop first (optional)</legend>
            <div class="row">
              <label>Width <input id="cw" type="number" min="0" step="1" placeholder="full"></label>
              <label>Height <input id="ch" type="number" min="0" step="1" placeholder="full"></label>
            </div>
          </fieldset>
          <div class="row">
            <label>Format
              <select id="format">
                <option value="">auto</option><option>jpg</option><option>png</option><option>webp</option><option>avif</option><option>gif</option>
              </select>
            </label>
            <label>Quality <input id="q" type="number" min="1" max="100" step="1" placeholder="default"></label>
          </div>
          <label class="wide">Signature
            <input id="sig" spellcheck="false">
          </label>
          <p id="signing" class="note"></p>
          <button type="submit">Fetch</button>
        </form>
        <section id="result" aria-live="polite">
          <div class="url">
            <span class="label">URL to use</span>
            <code id="url">–</code>
            <button type="button" id="copy">Copy</button>
          </div>
          <div class="url" id="to-sign" hidden>
            <span class="label">Path to sign</span>
            <code id="signed-path"></code>
          </div>
          <dl>
            <div><dt>Status</dt><dd id="status">–</dd></div>
            <div><dt>Content-Type</dt><dd id="type">–</dd></div>
            <div><dt>Size</dt><dd id="bytes">–</dd></div>
            <div><dt>Dimensions</dt><dd id="dimensions">–</dd></div>
            <div><dt>Time</dt><dd id="time">–</dd></div>
          </dl>
          <p id="error" hidden></p>
          <div id="stage">
            <p id="empty">Enter a source URL and press Fetch: the image the server answers appears here.</p>
            <img id="image" alt="the processed image" hidden>
          </div>
        </section>
        </main>
        </body>
        """#

    /// The page's style.
    static let style = #"""

        :root { color-scheme: light; --ink: #1d2430; --muted: #5b6678; --line: #d5dbe4; --accent: #2457c5; --bad: #b3261e; --good: #1f7a3a; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: #f4f6f9; }
        header { padding: 14px 24px; background: #fff; border-bottom: 1px solid var(--line); }
        h1 { margin: 0; font-size: 20px; }
        h1 span { color: var(--accent); font-weight: 500; }
        header p { margin: 2px 0 0; color: var(--muted); }
        main { display: grid; grid-template-columns: 330px minmax(0, 1fr); gap: 20px; padding: 20px 24px; align-items: start; }
        @media (max-width: 760px) { main { grid-template-columns: 1fr; } }
        form, section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px; }
        label { display: block; font-size: 13px; font-weight: 600; color: var(--muted); margin-bottom: 10px; }
        input, select { display: block; width: 100%; margin-top: 3px; padding: 6px 8px; font: inherit; font-weight: 400; color: var(--ink);
          border: 1px solid var(--line); border-radius: 5px; background: #fff; }
        input:focus, select:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
        .row { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
        fieldset { border: 1px dashed var(--line); border-radius: 6px; margin: 0 0 10px; padding: 6px 10px 0; }
        legend { font-size: 13px; color: var(--muted); padding: 0 4px; }
        .note { font-size: 13px; color: var(--muted); margin: -4px 0 12px; }
        .note.warn { color: #8a5a00; background: #fff6dd; border: 1px solid #f0d58c; border-radius: 5px; padding: 6px 8px; margin-top: 0; }
        button { font: inherit; font-weight: 600; border: 0; border-radius: 5px; padding: 8px 18px; background: var(--accent); color: #fff; cursor: pointer; }
        button:hover { filter: brightness(1.1); }
        .url { display: flex; align-items: center; gap: 10px; margin-bottom: 10px; }
        .url .label { flex: none; font-size: 13px; font-weight: 600; color: var(--muted); width: 92px; }
        .url code { flex: 1; min-width: 0; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", monospace;
          background: #f4f6f9; border: 1px solid var(--line); border-radius: 5px; padding: 6px 8px; }
        .url button { flex: none; padding: 6px 12px; }
        dl { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 14px 0; }
        dt { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        dd { margin: 0; font-weight: 600; }
        dd.good { color: var(--good); }
        dd.bad { color: var(--bad); }
        #error { color: var(--bad); background: #fdeceb; border: 1px solid #f3c1bd; border-radius: 5px; padding: 8px 10px; margin: 0 0 12px; overflow-wrap: anywhere; }
        #stage { min-height: 120px; padding: 12px; border-radius: 6px; border: 1px solid var(--line);
          background: repeating-conic-gradient(#e9edf2 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        #empty { margin: 36px 0; text-align: center; color: var(--muted); }
        #image { display: block; max-width: 100%; height: auto; }

        """#

    /// The page's behaviour: builds the URL, fetches it, shows the outcome (through `textContent` only).
    static let script = #"""

        'use strict';
        (() => {
          const $ = (id) => document.getElementById(id);
          const signing = document.documentElement.dataset.signing === 'on';
          const fields = ['src', 'w', 'h', 'rt', 'g', 'cw', 'ch', 'format', 'q', 'sig'];
          let objectURL = null;

          function show(id, text, className) {
            const element = $(id);
            element.textContent = text;
            if (className !== undefined) element.className = className;
          }

          // A plain source as imgproxy wants it: percent-encoded ('%', '@', '?', '#', … escaped), ':' and '/' kept readable.
          function encodeSource(source) {
            return encodeURIComponent(source).replace(/%3A/gi, ':').replace(/%2F/gi, '/');
          }

          function wholeNumber(id, name, max) {
            const text = $(id).value.trim();
            if (text === '') return 0;
            if (!/^\d+$/.test(text) || Number(text) > max) throw new Error(name + ' must be a whole number from 0 to ' + max);
            return Number(text);
          }

          // The options and the source: the part of the URL a signature covers.
          function signedPath() {
            const source = $('src').value.trim();
            if (source === '') throw new Error('enter a source URL');
            const options = [];
            const width = wholeNumber('w', 'the width', 100000);
            const height = wholeNumber('h', 'the height', 100000);
            const type = $('rt').value;
            if (width || height || type !== 'fit') options.push(['rs', type, width, height].join(':'));
            if ($('g').value !== 'ce') options.push('g:' + $('g').value);
            const cropWidth = wholeNumber('cw', 'the crop width', 100000);
            const cropHeight = wholeNumber('ch', 'the crop height', 100000);
            if (cropWidth || cropHeight) options.push(['c', cropWidth, cropHeight].join(':'));
            const quality = wholeNumber('q', 'the quality', 100);
            if (quality) options.push('q:' + quality);
            const format = $('format').value;
            options.push('plain', encodeSource(source) + (format ? '@' + format : ''));
            return '/' + options.join('/');
          }

          // The signature segment; empty when the server checks signatures and none was pasted.
          function signature() {
            const text = $('sig').value.trim();
            if (text !== '' && !/^[A-Za-z0-9_=-]+$/.test(text)) throw new Error('a signature is URL-safe base64 (letters, digits, - and _)');
            return text !== '' ? text : (signing ? '' : 'unsafe');
          }

          // Shows the URL the form describes; returns it, or null when the form is not complete.
          function describe() {
            let path, segment;
            try {
              path = signedPath();
              segment = signature();
            } catch (error) {
              show('url', '–');
              return { error: error.message };
            }
            show('signed-path', path);
            $('to-sign').hidden = !signing;
            if (segment === '') {
              show('url', location.origin + '/%signature' + path);
              return { error: 'this server checks signatures: paste the signature of the path to sign (computed server-side with the key and salt)' };
            }
            const url = '/' + segment + path;
            show('url', location.origin + url);
            return { url };
          }

          function clear() {
            for (const id of ['status', 'type', 'bytes', 'dimensions', 'time']) show(id, '–', '');
            $('error').hidden = true;
            $('stage').hidden = false;
            $('empty').hidden = false;
            $('image').hidden = true;
            $('image').removeAttribute('src');
            if (objectURL) URL.revokeObjectURL(objectURL);
            objectURL = null;
          }

          function fail(message) {
            show('error', message);
            $('error').hidden = false;
            $('stage').hidden = true;
          }

          function bytes(count) {
            const text = count.toLocaleString('en') + ' bytes';
            return count < 1024 ? text : text + ' (' + (count / 1024).toFixed(1) + ' KiB)';
          }

          function shareQuery() {
            const query = new URLSearchParams();
            for (const id of fields) {
              const value = $(id).value.trim();
              if (value !== '' && !(id === 'sig' && value === 'unsafe')) query.set(id, value);
            }
            query.set('auto', '1');
            return '?' + query.toString();
          }

          async function run() {
            clear();
            const described = describe();
            if (described.error) {
              fail(described.error);
              return;
            }
            history.replaceState(null, '', shareQuery());
            show('status', 'fetching…');
            const started = performance.now();
            let response, body;
            try {
              response = await fetch(described.url, { cache: 'no-store' });
              body = await response.blob();
            } catch (error) {
              show('status', 'failed', 'bad');
              fail('the request failed: ' + error.message);
              return;
            }
            show('time', Math.round(performance.now() - started) + ' ms');
            show('status', (response.status + ' ' + response.statusText).trim(), response.ok ? 'good' : 'bad');
            show('type', response.headers.get('Content-Type') || '(none)');
            show('bytes', bytes(body.size));
            if (!response.ok) {
              const message = (await body.text()).split('\n')[0];
              fail(message || 'the server answered ' + response.status);
              return;
            }
            objectURL = URL.createObjectURL(body);
            const image = $('image');
            image.onload = () => {
              show('dimensions', image.naturalWidth + ' × ' + image.naturalHeight);
              $('empty').hidden = true;
              image.hidden = false;
            };
            image.onerror = () => fail('the browser cannot show this image (' + (response.headers.get('Content-Type') || 'no type') + ')');
            image.src = objectURL;
          }

          async function copy() {
            const text = $('url').textContent;
            try {
              await navigator.clipboard.writeText(text);
            } catch {
              const range = document.createRange();
              range.selectNodeContents($('url'));
              const selection = getSelection();
              selection.removeAllRanges();
              selection.addRange(range);
              document.execCommand('copy');
            }
            show('copy', 'Copied');
            setTimeout(() => show('copy', 'Copy'), 1500);
          }

          const note = $('signing');
          if (signing) {
            note.textContent = 'This server checks URL signatures, and this page cannot sign: the key stays on the server. ' +
              'Sign the path to sign server-side (imgproxy\'s HMAC-SHA256 with your key and salt) and paste the signature here.';
            note.className = 'note warn';
            $('sig').placeholder = 'paste the signature';
          } else {
            note.textContent = 'Signatures are off on this server: any value works.';
            $('sig').value = 'unsafe';
          }

          const query = new URLSearchParams(location.search);
          for (const id of fields) {
            const value = query.get(id);
            if (value === null) continue;
            const field = $(id);
            if (field.tagName === 'SELECT' && ![...field.options].some((option) => option.value === value)) continue;
            field.value = value;
          }
          $('form').addEventListener('submit', (event) => {
            event.preventDefault();
            run();
          });
          $('form').addEventListener('input', () => describe());
          $('copy').addEventListener('click', copy);
          if (query.get('auto') === '1') run(); else describe();
        })();

        """#
}
