"""Several trained index networks as one ONNX file whose logits are their mean.

Why: the networks differ only by their training seed (initial weights, the epochs'
draws and augmentations), yet on decks they never saw they make different mistakes,
and a mistake one of them makes with near certainty the other rarely shares. The
mean of their logits is right more often and, above all, less often confidently
wrong, which is what sets the abstention bars (vision.training.calibrate). Averaging
logits (not probabilities) keeps the output a logit, so the temperature and every
bar are calibrated on the ensemble exactly as on one network.

The merged graph is a plain ONNX graph (Add and Mul on the members' outputs, opset
of the members), so onnxruntime and cv2.dnn both run it unchanged and the reader
needs no ensemble logic of its own. The embedding (deck enrolment's templates) is
the first member's alone, so that enrolled decks stay valid when members are added;
the other members' embedding branches are pruned from the graph.

Run: `python -m vision.training.ensemble OUT.onnx MEMBER.onnx [MEMBER.onnx ...]`
(`make model` trains the members and calls `merge`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

#: The input every member reads and the merged model keeps.
INPUT = "patch"
#: Outputs averaged over the members; EMBEDDING comes from member 0 alone.
AVERAGED = ("rank", "suit")
EMBEDDING = "embedding"


class EnsembleError(ValueError):
    """Members that cannot be merged (different inputs, outputs or opsets)."""


def _renamed(model: onnx.ModelProto, prefix: str, keep: set[str]) -> onnx.GraphProto:
    """A copy of `model`'s graph with every name but those in `keep` prefixed."""
    graph = onnx.GraphProto()
    graph.CopyFrom(model.graph)

    def name(n: str) -> str:
        return n if (not n or n in keep) else prefix + n

    for i, node in enumerate(graph.node):
        node.name = prefix + (node.name or f"{node.op_type}_{i}")  # unique, as ONNX needs
        node.input[:] = [name(n) for n in node.input]
        node.output[:] = [name(n) for n in node.output]
    for init in graph.initializer:
        init.name = name(init.name)
    for out in graph.output:
        out.name = name(out.name)
    return graph


def _needed(nodes: Sequence[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    """The nodes that `outputs` depend on, in their original (topological) order."""
    want = set(outputs)
    keep = []
    for node in reversed(nodes):
        if any(o in want for o in node.output):
            keep.append(node)
            want.update(node.input)
    return keep[::-1]


def merge(members: Sequence[str | Path], out: str | Path) -> Path:
    """Write the ensemble of the ONNX `members` (see module) to `out`; returns `out`.

    One member is copied as is. Raises EnsembleError when the members do not share
    the input, the outputs and the opset.
    """
    models = [onnx.load(str(p)) for p in members]
    if not models:
        raise EnsembleError("an ensemble needs at least one member network")
    first = models[0]
    outputs = [o.name for o in first.graph.output]
    if [i.name for i in first.graph.input] != [INPUT] or \
            set(outputs) != set(AVERAGED) | {EMBEDDING}:
        raise EnsembleError(f"{members[0]}: inputs/outputs {[i.name for i in first.graph.input]}"
                            f" / {outputs}, expected [{INPUT!r}] / {AVERAGED + (EMBEDDING,)}")
    for path, m in zip(members[1:], models[1:]):
        if [i.name for i in m.graph.input] != [INPUT] or \
                sorted(o.name for o in m.graph.output) != sorted(outputs):
            raise EnsembleError(f"{path}: its inputs or outputs differ from {members[0]}'s")
        if list(m.opset_import) != list(first.opset_import):
            raise EnsembleError(f"{path}: opset {m.opset_import} differs from {members[0]}'s")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if len(models) == 1:
        onnx.save(first, str(out))
        return out
    graphs = [_renamed(m, f"m{k}/", {INPUT} | ({EMBEDDING} if k == 0 else set()))
              for k, m in enumerate(models)]
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    for k, g in enumerate(graphs):
        wanted = {f"m{k}/{o}" for o in AVERAGED} | ({EMBEDDING} if k == 0 else set())
        used = _needed(list(g.node), wanted)
        nodes += used
        names = {n for node in used for n in node.input}
        inits += [i for i in g.initializer if i.name in names]
    scale = "ensemble/scale"
    inits.append(numpy_helper.from_array(np.array(1.0 / len(models), np.float32), scale))
    for o in AVERAGED:
        total = f"m0/{o}"
        for k in range(1, len(models)):
            nodes.append(helper.make_node("Add", [total, f"m{k}/{o}"], [f"ensemble/{o}_sum{k}"],
                                          name=f"ensemble/{o}_add{k}"))
            total = f"ensemble/{o}_sum{k}"
        nodes.append(helper.make_node("Mul", [total, scale], [o], name=f"ensemble/{o}_mean"))
    by_name = {o.name: o for o in first.graph.output}
    graph = helper.make_graph(nodes, "index_ensemble", list(first.graph.input),
                              [by_name[o] for o in outputs], inits)
    merged = helper.make_model(graph, opset_imports=list(first.opset_import),
                               producer_name="cardtable.vision.training.ensemble")
    merged.ir_version = first.ir_version
    onnx.checker.check_model(merged)
    onnx.save(merged, str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("members", type=Path, nargs="+")
    args = ap.parse_args(argv)
    path = merge(args.members, args.out)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB, {len(args.members)} members)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
