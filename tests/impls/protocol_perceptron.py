"""A perceptron speaking the ``novikoff diff --command`` protocol (version 1), written from the
specification in docs/howto/protocol.md with the standard library only (it imports nothing
of novikoff, so it checks the protocol text, not novikoff's own parser).

    python tests/impls/protocol_perceptron.py [--tie-rule RULE] [--float] [--bug NAME]

It runs the textbook perceptron, or the tie rule named on its command line (a
placeholder such as ``--tie-rule {tie_rule}`` passes the declared one), in exact
fractions, and answers the weights (as p/q, or with ``--float`` as C99 hex floats) and its
updates. ``--bug`` plants one bug: ``tie`` (no update on a tie), ``garbage`` (a line
outside the protocol), ``no-end`` (the final ``end`` missing), ``exit`` (exit status 3),
``unsupported`` (refuses every request), ``print`` (chatty on stdout before answering).
"""

from __future__ import annotations

import sys
from fractions import Fraction


def main(argv: list[str]) -> int:
    rule, bug, as_float = "nonstrict", "", False
    args = iter(argv)
    for a in args:
        if a == "--tie-rule":
            rule = next(args)
        elif a == "--bug":
            bug = next(args)
        elif a == "--float":
            as_float = True
    keys: dict[str, list[str]] = {}
    X: list[list[Fraction]] = []
    y: list[int] = []
    lines = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
    if lines[0] != ["novikoff-perceptron", "1"]:
        print("bad header", file=sys.stderr)
        return 2
    for words in lines[1:]:
        if words[0] == "sample":
            y.append(int(words[1]))
            X.append([Fraction(v) for v in words[2:]])
        elif words[0] != "end":
            keys[words[0]] = words[1:]
    if bug == "print":
        print("debugging: starting")
    out = ["novikoff-perceptron 1"]
    if bug == "unsupported":
        print("\n".join([*out, "unsupported refuses everything on purpose", "end"]))
        return 0
    bias = Fraction(keys["bias"][0])
    Z = [[yi * v for v in [*x, bias]] for x, yi in zip(X, y)]
    w = [Fraction(v) for v in keys["initial_weights"]]
    eta, margin = Fraction(keys["learning_rate"][0]), Fraction(keys["margin"][0])
    order = keys["order"]
    present = [int(i) for i in order[1:]] if order[0] == "given" else list(range(len(Z)))
    updates: list[int] = []
    epochs, converged = 0, False
    for _ in range(int(keys["max_epochs"][0])):
        epochs += 1
        clean = True
        for i in present:
            p = sum(a * b for a, b in zip(w, Z[i]))
            strict = rule == "strict" or bug == "tie"
            if p < margin or (p == margin and not strict):
                w = [a + eta * b for a, b in zip(w, Z[i])]
                updates.append(i)
                clean = False
        if clean:
            converged = True
            break
    number = (lambda v: float(v).hex()) if as_float else str
    out.append("weights " + " ".join(number(v) for v in w))
    out.append("updates " + " ".join(map(str, updates)))
    out += [f"mistakes {len(updates)}", f"epochs {epochs}", f"converged {'yes' if converged else 'no'}"]
    if bug == "garbage":
        out.append("weight 1 2 3")
    if bug != "no-end":
        out.append("end")
    print("\n".join(out))
    return 3 if bug == "exit" else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
