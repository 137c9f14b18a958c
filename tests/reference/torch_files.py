# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch weight files for tests/core/test_torch_file.cpp, written by torch.save itself, and
hostile ones written by hand.

    python3 torch_files.py OUT_DIR

writes into OUT_DIR:
  zip.bin, legacy.bin   one state dict in both of torch.save's containers: float32, float16,
                        bfloat16 and float64 tensors, a scalar, an empty tensor, a transposed
                        view and a slice sharing one storage, an nn.Parameter
  module.bin            an nn.Module's state_dict() (an OrderedDict with _metadata)
  expected.json         each tensor of zip.bin: shape, dtype and its values row-major as
                        float32 numbers
  evil-zip.bin, evil-legacy.bin   a state dict holding an object whose unpickling calls
                        os.system (it must never run: the test checks the marker file stays
                        absent)
  past-storage.bin      a legacy stream whose tensor reads elements 2 to 4 of a 4-element storage
  zero-stride.bin       a legacy stream whose tensor repeats one element a million times
                        (stride 0): more elements than its storage holds
"""
import collections
import json
import os
import pickle
import struct
import sys

import torch

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

g = torch.Generator().manual_seed(7)
base = torch.randn(6, 4, generator=g)
state = collections.OrderedDict()
state["w"] = torch.randn(3, 5, generator=g)
state["half"] = torch.randn(2, 3, generator=g).half()
state["bf16"] = torch.randn(4, generator=g).bfloat16()
state["double"] = torch.randn(2, 2, generator=g).double()
state["scalar"] = torch.tensor(3.5)
state["empty"] = torch.zeros(0, 4)
state["base"] = base
state["transposed"] = base.t()          # the same storage, strides (1, 4)
state["slice"] = base[2:5, 1:3]         # the same storage, offset 9, strides (4, 1)
state["tied"] = base                    # the same view again: a tied embedding and head
state["param"] = torch.nn.Parameter(torch.randn(2, 2, generator=g))
torch.save(state, os.path.join(out, "zip.bin"))
torch.save(state, os.path.join(out, "legacy.bin"), _use_new_zipfile_serialization=False)

expected = {}
for k, t in state.items():
    t = t.detach()
    expected[k] = {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
                   "values": t.float().contiguous().reshape(-1).tolist()}
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f)

module = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.LayerNorm(2))
torch.save(module.state_dict(), os.path.join(out, "module.bin"))


class Evil:
    def __reduce__(self):
        return (os.system, ("touch " + os.path.join(out, "pwned"),))


torch.save({"w": torch.zeros(2), "x": Evil()}, os.path.join(out, "evil-zip.bin"))
torch.save({"w": torch.zeros(2), "x": Evil()}, os.path.join(out, "evil-legacy.bin"),
           _use_new_zipfile_serialization=False)


# Legacy streams by hand: a tensor (offset, size, stride) over a storage of 4 elements.
class FakeStorage:
    pass


STORAGE = FakeStorage()


class View:
    def __init__(self, offset, size, stride):
        self.args = (offset, size, stride)

    def __reduce__(self):
        offset, size, stride = self.args
        return (torch._utils._rebuild_tensor_v2,
                (STORAGE, offset, size, stride, False, collections.OrderedDict()))


class Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        if obj is STORAGE:
            return ("storage", torch.FloatStorage, "0", "cpu", 4, None)
        return None


for name, view in (("past-storage.bin", View(2, (3,), (1,))),
                   ("zero-stride.bin", View(0, (1000000,), (0,))),
                   ("negative-stride.bin", View(3, (4,), (-1,))),
                   ("overflow-size.bin", View(0, (2 ** 32, 2 ** 32, 2 ** 32), (1, 1, 1)))):
    with open(os.path.join(out, name), "wb") as f:
        for header in (0x1950a86a20f9469cfc6c, 1001,
                       {"protocol_version": 1001, "little_endian": True}):
            pickle.dump(header, f, protocol=2)
        Pickler(f, protocol=2).dump({"w": view})
        pickle.dump(["0"], f, protocol=2)
        f.write(struct.pack("<q", 4) + struct.pack("<4f", 1, 2, 3, 4))

# The zip archive again: its entries deflated (a compressed entry is refused, whatever its
# ratio: no zip bomb can be inflated), a "global" other than the allowed ones under the name
# of an allowed module, and the archive's folder named to climb out of where it would be
# extracted (nothing is extracted: the entries are read by their names, in memory).
import zipfile
with zipfile.ZipFile(os.path.join(out, "zip.bin")) as z:
    entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
with zipfile.ZipFile(os.path.join(out, "deflated.bin"), "w", zipfile.ZIP_DEFLATED) as z:
    for n, data in entries:
        z.writestr(n, data)
with zipfile.ZipFile(os.path.join(out, "traversal.bin"), "w", zipfile.ZIP_STORED) as z:
    for n, data in entries:
        z.writestr("../../evil/" + n.split("/", 1)[1], data)


class Unknown:
    def __reduce__(self):
        return (collections.Counter, ())


torch.save({"w": torch.zeros(2), "x": Unknown()}, os.path.join(out, "unknown-global.bin"))
print("ok")
