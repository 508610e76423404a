"""A pytest fixture serving a temporary folder over HTTP on 127.0.0.1, for the download
paths of dataset loaders (import it into a test module to use it)."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest


@pytest.fixture
def http_folder(tmp_path):
    """(folder, base URL): files put in the folder are served at URL + name."""
    served = tmp_path / "served"
    served.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
