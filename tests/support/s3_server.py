"""A real S3 API on 127.0.0.1 for tests: moto's server in a background thread, no network needed.

``running_s3_server`` starts it, creates the bucket ``foldbench-test`` and points pyarrow's S3 client at it through the
environment (``AWS_ENDPOINT_URL``, test credentials), so ``s3://foldbench-test/...`` URIs reach it. A module's tests
may instead share one server (``moto_endpoint``), each emptying it first (``emptied_s3_server``).
"""

from __future__ import annotations

import logging
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow.fs as pafs
import pytest

__all__ = ["BUCKET", "S3Server", "emptied_s3_server", "moto_endpoint", "running_s3_server"]

BUCKET = "foldbench-test"


@dataclass(frozen=True, slots=True)
class S3Server:
    """The running server: its ``host:port`` and a pyarrow filesystem on it."""

    endpoint: str
    filesystem: pafs.S3FileSystem

    def uri(self, key: str, *, explicit: bool = False) -> str:
        """``s3://BUCKET/key``; with ``explicit`` the endpoint is given in the URI instead of the environment."""
        query = f"?endpoint_override={self.endpoint}&scheme=http" if explicit else ""
        return f"s3://{BUCKET}/{key}{query}"

    def keys(self, prefix: str = "") -> list[str]:
        """Every object under ``BUCKET/prefix`` (paths relative to the bucket), sorted."""
        selector = pafs.FileSelector(f"{BUCKET}/{prefix}".rstrip("/"), recursive=True, allow_not_found=True)
        infos = self.filesystem.get_file_info(selector)
        return sorted(i.path.removeprefix(f"{BUCKET}/") for i in infos if i.type == pafs.FileType.File)

    def download(self, key: str, local: Path) -> Path:
        """Copy the directory ``key`` of the bucket to ``local``."""
        local.mkdir(parents=True, exist_ok=True)
        pafs.copy_files(f"{BUCKET}/{key}", str(local), source_filesystem=self.filesystem,
                        destination_filesystem=pafs.LocalFileSystem())  # fmt: skip
        return local


def running_s3_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[S3Server]:
    """A moto S3 server on 127.0.0.1 with an empty bucket, reachable through ``s3://`` URIs until the iteration
    ends (the body of a fixture)."""
    with moto_endpoint() as endpoint:
        yield emptied_s3_server(endpoint, monkeypatch)


@contextmanager
def moto_endpoint() -> Iterator[str]:
    """A moto S3 server on 127.0.0.1 for the block: its ``host:port``. Stopping it takes about half a second
    (its serving loop looks for the stop every 0.5 s), so a module's tests may share one, each test emptying it
    with :func:`emptied_s3_server`."""
    server_module = pytest.importorskip("moto.server", reason="the test extra moto[server] is not installed")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"{host}:{port}"
    finally:
        server.stop()


def emptied_s3_server(endpoint: str, monkeypatch: pytest.MonkeyPatch) -> S3Server:
    """The moto server at ``endpoint`` emptied but for the bucket ``foldbench-test``, and pyarrow's S3 client pointed
    at it through the environment (set with ``monkeypatch``, so undone after the test)."""
    # moto keeps its buckets in the process: start from none
    urllib.request.urlopen(urllib.request.Request(f"http://{endpoint}/moto-api/reset", method="POST")).close()
    for name, value in {
        "AWS_ENDPOINT_URL": f"http://{endpoint}",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)
    filesystem = pafs.S3FileSystem(access_key="testing", secret_key="testing", endpoint_override=endpoint,
                                   scheme="http", region="us-east-1", allow_bucket_creation=True)  # fmt: skip
    filesystem.create_dir(BUCKET)
    return S3Server(endpoint, filesystem)
