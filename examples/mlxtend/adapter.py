"""mlxtend's Perceptron (0.23.1) behind the ``novikoff diff --command`` protocol, version 1.

Run by the Python of a separate environment that holds mlxtend and a numpy it works with
(0.23.1's ``fit`` raises under numpy 2: ``int(update != 0.0)`` on an array)::

    python -m venv /tmp/mlxtend-venv
    /tmp/mlxtend-venv/bin/pip install "numpy<2" mlxtend==0.23.1
    novikoff diff --command '/tmp/mlxtend-venv/bin/python examples/mlxtend/adapter.py' \
        --tie-rule sign-positive --stop all-epochs --initial-weights drawn

It imports nothing of novikoff. mlxtend's ``fit`` itself does the learning; the adapter
only sets what the request fixes: ``eta = 1/2`` (mlxtend's step is ``eta (y - pred)``, so 2
eta y = y: learning rate 1), the initial weights ``w_``/``b_`` (mlxtend would draw them),
``epochs`` = max_epochs, and the presentation order (mlxtend shuffles with its own
generator; the adapter's batch generator presents the requested order).
"""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
from mlxtend.classifier import Perceptron


def splitmix_order(seed: int, epoch: int, m: int) -> list[int]:
    """``order shuffle-v1 SEED`` as docs/howto/protocol.md specifies it."""
    mask = 2**64 - 1
    state, perm = (seed * 2**32 + epoch) & mask, list(range(m))
    for i in range(m - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = (z ^ (z >> 31)) % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def main() -> int:
    keys, X, y = {}, [], []
    for line in sys.stdin.read().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "sample":
            y.append(1 if words[1] == "+1" else 0)
            X.append([float(Fraction(v)) for v in words[2:]])
        else:
            keys[words[0]] = words[1:]
    if keys.get("novikoff-perceptron") != ["1"] or keys["algorithm"] != ["perceptron"]:
        print("novikoff-perceptron 1\nunsupported only protocol 1, algorithm perceptron\nend")
        return 0
    m, epochs = len(y), int(keys["max_epochs"][0])
    order = keys["order"]
    if len(set(y)) < 2:
        print("novikoff-perceptron 1\nunsupported mlxtend needs both classes\nend")
        return 0
    w0 = [float(Fraction(v)) for v in keys["initial_weights"]]
    model = Perceptron(eta=0.5, epochs=epochs, random_seed=0, print_progress=0)
    model.w_ = np.array(w0[:-1]).reshape(-1, 1)
    model.b_ = np.array([w0[-1]])
    model.cost_ = []
    count = iter(range(10**9))

    def batches(rgen, n_batches, data_ary, shuffle=True):
        epoch = next(count)
        if order[0] == "given":
            idx = [int(i) for i in order[1:]]
        elif order[0] == "shuffle-v1":
            idx = splitmix_order(int(order[1]), epoch, m)
        else:
            idx = list(range(m))
        for i in idx:
            yield np.array([i])

    model._yield_minibatches_idx = batches
    model.fit(np.array(X, dtype=np.float64), np.array(y), init_params=False)
    weights = [float(v) for v in model.w_.ravel()] + [float(model.b_[0])]
    print("novikoff-perceptron 1")
    print("weights " + " ".join(v.hex() for v in weights))
    print(f"mistakes {sum(model.cost_)}")
    print(f"epochs {epochs}")
    print("end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
