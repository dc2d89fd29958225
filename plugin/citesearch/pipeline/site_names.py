"""Site paths every file system can write: what ``check`` must catch so that ``build`` cannot fail on it.

Linux (ext4, btrfs, tmpfs, most others) refuses a name over 255 bytes with
"File name too long", and a path over 4,096 bytes.  Page names are made from
ids (a file name plus ``.html``) and aliases, so a name the content folder
holds can still give a page name too long to write.
"""

from __future__ import annotations

import os
from typing import Mapping

from ..errors import Problem
from .check import Origin

MAX_NAME_BYTES = 255
# PATH_MAX is 4,096 bytes with the output folder's own path in front; leave it room.
MAX_SITE_PATH_BYTES = 3_072


def name_length_problems(origins: Mapping[str, Origin]) -> list[Problem]:
    """Each site path with a name over 255 bytes, or too long as a whole, blamed on its content file."""
    problems = []
    for path, origin in origins.items():
        if origin.source is None:
            continue  # citesearch's own files have short fixed names
        encoded = os.fsencode(path)
        longest = max(encoded.split(b"/"), key=len)
        if len(longest) > MAX_NAME_BYTES:
            problems.append(Problem(origin.source, 1, (
                f"{origin.subject} would have a name of {len(longest)} bytes; file systems allow at most "
                f"{MAX_NAME_BYTES} bytes per name: shorten the file name, or set a shorter 'id:' or alias"
            )))
        elif len(encoded) > MAX_SITE_PATH_BYTES:
            problems.append(Problem(origin.source, 1, (
                f"{origin.subject} would have a path of {len(encoded):,} bytes; at most {MAX_SITE_PATH_BYTES:,} "
                "can be written: use fewer or shorter folders"
            )))
    return problems
