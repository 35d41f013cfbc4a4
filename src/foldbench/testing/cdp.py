"""A small Chrome DevTools Protocol driver over the system's ``chromium`` (headless), for end-to-end tests.

It downloads nothing: it starts the ``chromium`` found on ``PATH`` with a debugging port, connects to its page
over a websocket (aiohttp) and sends the protocol's commands (navigate, evaluate, real mouse clicks, screenshots).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

__all__ = ["Browser", "chromium_path"]


def chromium_path() -> str | None:
    """The system's chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless chromium with one page."""

    def __init__(self, executable: str) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="foldbench-chromium-", ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [
                executable,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--remote-debugging-port=0",
                f"--user-data-dir={self._profile.name}",
                "--window-size=1200,1400",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its helper processes share the group, so closing can end them all
        )
        port = self._debug_port()
        self._loop = asyncio.new_event_loop()
        self._session: aiohttp.ClientSession = self._run(self._open_session())
        targets = self._run(self._get_json(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self._ws = self._run(self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=64 * 1024 * 1024))
        self._next_id = 0
        self.command("Page.enable")
        self.command("Runtime.enable")

    def _debug_port(self) -> int:
        assert self._process.stderr is not None
        for line in self._process.stderr:  # chromium names its port on stderr once it listens
            match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if match:
                return int(match.group(1))
        raise RuntimeError("chromium ended without opening its debugging port")

    async def _open_session(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    async def _get_json(self, url: str) -> Any:
        async with self._session.get(url) as response:
            return await response.json(content_type=None)

    def _run(self, coroutine: Any) -> Any:
        return self._loop.run_until_complete(coroutine)

    def command(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one protocol command and wait for its result (events in between are dropped)."""
        self._next_id += 1
        message_id = self._next_id

        async def exchange() -> dict[str, Any]:
            await self._ws.send_str(json.dumps({"id": message_id, "method": method, "params": params}))
            while True:
                message = await asyncio.wait_for(self._ws.receive(), timeout=30)
                if message.type != aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"the browser closed the connection ({message.type})")
                data = json.loads(message.data)
                if data.get("id") == message_id:
                    if "error" in data:
                        raise RuntimeError(f"{method}: {data['error']}")
                    return data.get("result", {})

        return self._run(exchange())

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str) -> Any:
        """Wait until a JavaScript expression is truthy; returns its value.

        The page itself re-reads the expression on every animation frame and answers once it holds; a
        navigation that replaces the page (and the waiting script with it) makes this ask the new page."""
        waiting = (
            "new Promise(resolve => { const check = () => { let value; try { value = (" + expression + "); }"
            " catch (error) { value = undefined; } if (value) resolve(value); else requestAnimationFrame(check); };"
            " check(); })"
        )
        while True:
            try:
                return self.evaluate(waiting)
            except RuntimeError:  # the page was replaced while it waited
                continue

    def goto(self, url: str) -> None:
        """Open ``url`` and wait until the page has loaded."""
        self.command("Page.navigate", url=url)
        self.wait_for(f"document.readyState === 'complete' && location.href.startsWith({json.dumps(url[:20])})")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) at the centre of the element ``selector``."""
        box = self.wait_for(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        self.click_at(*box)

    def click_at(self, x: float, y: float) -> None:
        """A real mouse click at viewport coordinates."""
        for kind in ("mousePressed", "mouseReleased"):
            self.command("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def select(self, name: str, value: str) -> None:
        """Choose ``value`` in the ``<select name=...>``."""
        ok = self.evaluate(
            f"(() => {{ const s = document.querySelector('select[name=\"{name}\"]'); if (!s) return false;"
            f" s.value = {json.dumps(value)}; s.dispatchEvent(new Event('change'));"
            f" return s.value === {json.dumps(value)}; }})()"
        )
        if not ok:
            raise RuntimeError(f"no option {value!r} in select {name!r}")

    def press(self, key: str) -> None:
        """A real key press (down and up) of one character key or ``Enter``."""
        code = 13 if key == "Enter" else ord(key.upper())
        text = "\r" if key == "Enter" else key
        self.command("Input.dispatchKeyEvent", type="keyDown", key=key, text=text, windowsVirtualKeyCode=code)
        self.command("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code)

    def press_and_wait(self, key: str) -> None:
        """Press a key that submits a form and wait until the next page has loaded."""
        origin = self.evaluate("performance.timeOrigin")
        self.press(key)
        self.wait_for(f"performance.timeOrigin !== {origin!r} && document.readyState === 'complete'")

    def click_and_wait(self, selector: str) -> None:
        """Click (e.g. a submit button) and wait until the next page has loaded."""
        origin = self.evaluate("performance.timeOrigin")
        self.click(selector)
        self.wait_for(f"performance.timeOrigin !== {origin!r} && document.readyState === 'complete'")

    def screenshot(self, path: Path, *, whole_page: bool = True) -> Path:
        """A PNG of the whole page (or of what the window shows)."""
        data = self.command("Page.captureScreenshot", format="png", captureBeyondViewport=whole_page)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        """Close the page, the browser and its profile."""
        try:
            self._run(self._ws.close())
            self._run(self._session.close())
        finally:
            self._loop.close()
            # chromium's helper processes may still write to the profile after the main one exits: end the group
            for signal_number in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._process.pid, signal_number)
                try:
                    self._process.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._process.pid, signal.SIGKILL)
            self._profile.cleanup()
