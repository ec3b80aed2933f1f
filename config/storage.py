"""Static files storage for production: hashed names, gzip and Brotli copies (WhiteNoise)."""

from typing import Any

import brotli
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

# Brotli at its highest quality needs minutes for Pyodide's 8 MB WebAssembly file (collectstatic
# in `make serve` and `make update` then seems to hang); quality 5 takes a second and still beats
# gzip. Small files keep the highest quality.
LARGE_FILE_BYTES = 512 * 1024


class FastLargeFileCompressor(Compressor):
    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        return brotli.compress(data, quality=5 if len(data) > LARGE_FILE_BYTES else 11)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    def create_compressor(self, **kwargs: Any) -> Compressor:
        return FastLargeFileCompressor(**kwargs)
