#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""torchrun (python3 -m torch.distributed.run), every option the same, made to work on
Debian 12.

Debian 12's python3-torch is 1.13 on Python 3.11. There its launcher dies before starting any
process, with "AttributeError: 'NoneType' object has no attribute 'get'" in to_map: Std.from_str
looks the default --redirects/--tee value "0" up by iterating the IntFlag Std, and Python 3.11
no longer yields Std.NONE (0) nor Std.ALL (OUT|ERR) when iterating a flag, so it returns None
(e.g. https://github.com/meta-llama/llama/issues/86). This maps the value by number instead,
then runs torchrun's own main(). Where torchrun works (newer PyTorch), it changes nothing:

  python3 scripts/torchrun.py --nproc_per_node 2 scripts/train_ddp.py --corpus DIR …
"""
import re

from torch.distributed.elastic.multiprocessing import api


def _from_str(vm):
    if re.fullmatch(r"[0-3]", vm):
        return api.Std(int(vm))
    if re.fullmatch(r"(\d:[0-3],)*\d:[0-3]", vm):
        return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    raise ValueError(f"{vm} is neither 0-3 nor a mapping such as 0:3,1:0")


if api.Std.from_str("0") is None:  # the Python 3.11 lookup failure above
    api.Std.from_str = staticmethod(_from_str)

if __name__ == "__main__":
    from torch.distributed.run import main
    main()
