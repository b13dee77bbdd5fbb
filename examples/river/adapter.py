"""river's ``linear_model.Perceptron`` behind the ``novikoff diff --command`` protocol, version 1.

Run by the Python of an environment that holds river::

    python -m venv /tmp/river-venv && /tmp/river-venv/bin/pip install river
    novikoff diff --command '/tmp/river-venv/bin/python examples/river/adapter.py' --stop all-epochs

It imports nothing of novikoff. river learns online, one ``learn_one`` per presented
sample (its hinge loss with threshold 0 updates on ``y w.x~ <= 0``, rate 1, intercept rate
1): the adapter presents the requested order for max_epochs epochs (an online learner has
no epochs of its own, so ``--stop all-epochs``) and answers river's weights and intercept.
"""

from __future__ import annotations

import sys
from fractions import Fraction

from river import linear_model


def main() -> int:
    keys, X, y = {}, [], []
    for line in sys.stdin.read().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "sample":
            y.append(words[1] == "+1")
            X.append([float(Fraction(v)) for v in words[2:]])
        else:
            keys[words[0]] = words[1:]
    order = keys["order"]
    if keys.get("novikoff-perceptron") != ["1"] or order[0] not in ("natural", "given"):
        print("novikoff-perceptron 1\nunsupported protocol 1 with a natural or given order only\nend")
        return 0
    idx = [int(i) for i in order[1:]] if order[0] == "given" else list(range(len(y)))
    model = linear_model.Perceptron()
    for _ in range(int(keys["max_epochs"][0])):
        for i in idx:
            model.learn_one(dict(enumerate(X[i])), y[i])
    weights = [float(model.weights.get(j, 0.0)) for j in range(len(X[0]))] + [float(model.intercept)]
    print("novikoff-perceptron 1")
    print("weights " + " ".join(v.hex() for v in weights))
    print("end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
