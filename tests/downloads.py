"""Source tarballs from outside the project, for the tests that build
programs nobody here wrote (test_outside_posix.py, test_thirdparty_upstream.py):
downloaded once from a pinned URL, checked against a pinned sha256, kept in
$XDG_CACHE_HOME/ripper (~/.cache/ripper); without a network the test skips.

    path = download("zlib", "https://.../zlib_1.2.13.dfsg.orig.tar.bz2", "71fe...")
    unpack(path, str(tmp_path))
"""
import hashlib
import os
import tarfile
import urllib.request

import pytest


def cache_dir():
    """Where downloads stay between runs, e.g. ~/.cache/ripper ($XDG_CACHE_HOME's
    default; shared by clones and `make mutate`'s copies of the tree)."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "ripper")


def download(name, url, sha):
    """download("tinyproxy", URL, SHA256) -> path of the verified tarball
    (skips the test if it cannot be fetched; fails if its bytes are not the
    pinned ones)."""
    path = os.path.join(cache_dir(), os.path.basename(url))
    if not os.path.exists(path):
        os.makedirs(cache_dir(), exist_ok=True)
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                data = r.read()
        except OSError as e:
            pytest.skip("cannot download %s (%s): %s" % (name, url, e))
        if hashlib.sha256(data).hexdigest() != sha:
            pytest.fail("%s: sha256 is not the pinned %s" % (url, sha))
        with open(path + ".part", "wb") as f:
            f.write(data)
        os.replace(path + ".part", path)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == sha, "%s is corrupt: delete it" % path
    return path


def unpack(tarball, into):
    """Extract `tarball` into `into`, refusing members that would land
    outside it (tarfile's "data" filter, where this Python has it)."""
    with tarfile.open(tarball) as t:
        if hasattr(tarfile, "data_filter"):
            t.extractall(into, filter="data")
        else:
            t.extractall(into)
