#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Open HTML pages in headless Chromium and check them.

    browser-check.py SCREENSHOT_DIR PAGE.html...

Talks the Chrome DevTools Protocol over --remote-debugging-pipe (standard
library only). For each page: load it, wait for the load event, then check
that nothing was logged as an error on the console, no exception was thrown,
no resource failed to load, and every graphviz diagram (an <object> or <img>
of an SVG file) loaded an SVG with a non-zero size. Saves a screenshot of
each page as SCREENSHOT_DIR/NAME.png. Prints one line per page:
"ok PAGE: N diagrams" or "bad PAGE: reasons"; exits 1 if any page is bad.
"""
import base64
import fcntl
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
    "--allow-file-access-from-files", "--remote-debugging-pipe",
    "--window-size=1200,900",
]

# Run in the page after load: describe every diagram.
DIAGRAMS_JS = """
(() => {
  const out = [];
  for (const o of document.querySelectorAll('object[data$=".svg"], img[src$=".svg"]')) {
    const name = o.getAttribute('data') || o.getAttribute('src');
    let ok = false, why = 'not loaded';
    if (o.tagName === 'IMG') {
      ok = o.complete && o.naturalWidth > 0;
    } else {
      const doc = o.contentDocument;
      const root = doc && doc.documentElement;
      if (root && root.nodeName.toLowerCase() === 'svg') {
        const box = root.getBoundingClientRect();
        ok = box.width > 0 && box.height > 0;
        why = ok ? '' : 'empty svg';
      } else if (root) {
        why = 'not an svg: ' + root.nodeName;
      }
    }
    out.push({name, ok, why});
  }
  return JSON.stringify(out);
})()
"""


class Browser:
    def __init__(self, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            # Chromium reads commands on fd 3 and answers on fd 4.
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, "--user-data-dir=" + profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=child_fds)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_browser, 65536)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        while True:
            ev = self._read_message(deadline)
            if ev.get("method") == method:
                return ev
            self.events.append(ev)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def check_page(browser, page, shots):
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget",
                           {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(domain + ".enable", session=session)
    browser.events.clear()
    url = pathlib.Path(page).resolve().as_uri()
    nav = browser.call("Page.navigate", {"url": url}, session=session)
    problems = []
    if nav.get("errorText"):
        problems.append("navigation failed: " + nav["errorText"])
    else:
        browser.wait_event("Page.loadEventFired")
        time.sleep(0.5)  # let late console messages arrive
    res = browser.call("Runtime.evaluate",
                       {"expression": DIAGRAMS_JS, "returnByValue": True},
                       session=session)
    diagrams = json.loads(res["result"]["value"])
    for d in diagrams:
        if not d["ok"]:
            problems.append(f"diagram {d['name']}: {d['why']}")
    for ev in browser.events:
        method, p = ev.get("method"), ev.get("params", {})
        if ev.get("sessionId") not in (None, session):
            continue
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            problems.append("console error: " + text)
        elif method == "Runtime.exceptionThrown":
            problems.append("exception: " + p["exceptionDetails"].get("text", "?"))
        elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
            problems.append("log error: " + p["entry"].get("text", "?"))
        elif method == "Network.loadingFailed":
            problems.append("failed to load: " + p.get("errorText", "?"))
    shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
    name = pathlib.Path(page).stem
    (pathlib.Path(shots) / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))
    browser.call("Target.closeTarget", {"targetId": target})
    return diagrams, problems


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    shots, pages = sys.argv[1], sys.argv[2:]
    os.makedirs(shots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="browser-check-")
    bad = 0
    browser = Browser(profile)
    try:
        for page in pages:
            try:
                diagrams, problems = check_page(browser, page, shots)
            except Exception as e:  # a hung or crashed browser is a failure
                diagrams, problems = [], [f"{type(e).__name__}: {e}"]
            if problems:
                bad = 1
                print(f"bad {page}: " + "; ".join(problems))
            else:
                print(f"ok {page}: {len(diagrams)} diagrams")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
