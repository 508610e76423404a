"""`tf.keras.utils.get_file`: a file from a URL, cached under `~/.keras/<cache_subdir>` as
tf-keras 2.21 caches it.

A file already in the cache is used as is (its hash checked when `file_hash` is given:
a mismatch downloads it again); otherwise it is fetched with urllib into a temporary file
that is renamed into place only when complete and (with a hash) verified, so a failed or
interrupted download leaves nothing behind. Offline, the download fails with tf-keras's
"URL fetch failure on ..." Exception, which also names the path where a copy fetched
elsewhere can be put.
"""

from __future__ import annotations

import hashlib
import os
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from typing import Optional, Union
from urllib.parse import urlsplit

__all__ = ["get_file", "validate_file", "resolve_hasher", "hash_file"]

_CHUNK = 65535


def resolve_hasher(algorithm: str, file_hash: Optional[str] = None) -> "hashlib._Hash":
    """sha256 for "sha256" (or "auto" with a 64-digit hash), else md5."""
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def hash_file(fpath: str, algorithm: str = "sha256", chunk_size: int = _CHUNK) -> str:
    """The hex digest of a file."""
    hasher = resolve_hasher(algorithm) if isinstance(algorithm, str) else algorithm
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath: str, file_hash: str, algorithm: str = "auto",
                  chunk_size: int = _CHUNK) -> bool:
    """Whether the file's md5 or sha256 digest is `file_hash`."""
    hasher = resolve_hasher(algorithm, file_hash)
    return hash_file(fpath, hasher, chunk_size) == str(file_hash)


def _extract(fpath: str, path: str, archive_format: Union[str, list, None]) -> bool:
    """Unpacks a tar or zip archive into `path` (members leaving `path` are refused)."""
    if archive_format is None:
        return False
    formats = {"auto": ["tar", "zip"], "tar": ["tar"], "zip": ["zip"]}
    kinds = formats.get(archive_format, archive_format) if isinstance(archive_format, str) \
        else archive_format
    root = os.path.realpath(path)
    for kind in kinds:
        is_kind, opener = ((tarfile.is_tarfile, tarfile.open) if kind == "tar"
                           else (zipfile.is_zipfile, zipfile.ZipFile))
        if not is_kind(fpath):
            continue
        with opener(fpath) as archive:
            names = archive.getnames() if kind == "tar" else archive.namelist()
            for name in names:
                target = os.path.realpath(os.path.join(path, name))
                if os.path.commonpath([root, target]) != root:
                    raise ValueError(f"archive member {name!r} would be written outside "
                                     f"{path}")
            archive.extractall(path)
        return True
    return False


def _download(origin: str, fpath: str, file_hash: Optional[str], algorithm: str) -> None:
    """Fetches `origin` to `fpath` through a temporary file in the same folder."""
    print(f"Downloading data from {origin}")
    fd, partial = tempfile.mkstemp(prefix=".download-", dir=os.path.dirname(fpath))
    os.close(fd)
    message = "URL fetch failure on {}: {} -- {}"
    hint = (f" (tf1compat could not download the file; fetch it on a connected machine "
            f"and place it at {fpath})")
    try:
        try:
            urllib.request.urlretrieve(origin, partial)
        except urllib.error.HTTPError as e:
            raise Exception(message.format(origin, e.code, e.msg) + hint) from e
        except urllib.error.URLError as e:
            raise Exception(message.format(origin, e.errno, e.reason) + hint) from e
        if file_hash is not None and not validate_file(partial, file_hash, algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {algorithm} file "
                             f"hash does not match the provided value of {file_hash}.")
        os.replace(partial, fpath)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def get_file(fname: Optional[str] = None, origin: Optional[str] = None,
             untar: bool = False, md5_hash: Optional[str] = None,
             file_hash: Optional[str] = None, cache_subdir: str = "datasets",
             hash_algorithm: str = "auto", extract: bool = False,
             archive_format: Union[str, list, None] = "auto",
             cache_dir: Optional[str] = None) -> str:
    """The local path of `origin`'s file in the Keras cache, downloaded if missing (or
    its hash differs); `untar`/`extract` unpack archives next to it."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to '
                         "download).")
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(cache_dir)
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    fname = os.fspath(fname) if fname else os.path.basename(urlsplit(origin).path)
    if not fname:
        raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                         "Please specify the `fname` as the input param.")
    if untar:
        if fname.endswith(".tar.gz"):
            fname = fname[:-len(".tar.gz")]
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)
    download = not os.path.exists(fpath)
    if not download and file_hash is not None and not validate_file(fpath, file_hash,
                                                                    hash_algorithm):
        print(f"A local file was found, but it seems to be incomplete or outdated because "
              f"the {hash_algorithm} file hash does not match the original value of "
              f"{file_hash} so we will re-download the data.")
        download = True
    if download:
        _download(origin, fpath, file_hash, hash_algorithm)
    if untar:
        if not os.path.exists(untar_fpath):
            _extract(fpath, datadir, "tar")
        return untar_fpath
    if extract:
        _extract(fpath, datadir, archive_format)
    return fpath
