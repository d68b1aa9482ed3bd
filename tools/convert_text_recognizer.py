#!/usr/bin/env python3
"""Rewrites PP-OCRv4's text-line recognizer (ch_PP-OCRv4_rec_infer.onnx, from the
rapidocr-onnxruntime wheel, Apache-2.0) into a graph OpenCV 4.6's ONNX importer reads and runs at
any input width, and writes its character list (the model's `character` metadata, which OpenCV
does not expose) to a file. Every rewrite is exact: the weights are not changed, only how the
graph computes with them; `tools/check_text_recognizer.py` compares the result with the original
under onnxruntime.

OpenCV 4.6 (Debian 12) fails on the exported graph, one fault after another; each rewrite:
- Clip with min and max as inputs (opset 12) -> the opset-10 Clip with attributes (as for the
  detector: convert_text_detector.rewrite_clips).
- Reshape targets computed at run time (Shape -> Cast -> Slice -> Concat; "dynamic 'zero' shapes
  are not supported") -> constants: the target is evaluated at two input widths, the one entry
  that differs (the time axis) becomes -1, the batch is 1.
- Squeeze (its output shape frozen at import) -> Reshape to a constant target, found the same way.
- ReduceMean over the last axis (the LayerNorms of the SVTR neck; 4.6 freezes the width at
  import) -> MatMul with a C x 1 column of 1/C.
- Mul and Add with a per-channel 1-D constant on an [N, T, C] tensor (LayerNorm's scale and shift,
  the linear layers' biases; 4.6 makes them an axis-1 Scale layer, which fails on the channel
  being last) -> the tensor transposed to [N, C, T], the operation with the constant as a
  [1, C, 1] tensor, transposed back.
- A 5x5 depthwise convolution, which 4.6 runs about 30 times slower than a 3x3 -> the sum of four
  3x3 depthwise convolutions over the kernel's four corners (each weight in exactly one of them;
  asymmetric pads align them; the bias on the first): the same sums in another order
  (convert_text_detector.split_depthwise, which the detector's rewrite uses too).
- The input is declared 1 x 3 x 48 x 320 (the importer needs a concrete shape; the net then runs at
  any width, batch 1), the opset is declared 10 (Clip's attributes are its opset-10 form; Softmax over the last axis means the same there).
The result must pass onnx's full checker. Run by `make text-recognizer` (Makefile), in the venv
with the onnx package; Python is the build's only, never the library's.

Usage: convert_text_recognizer.py IN.onnx OUT.onnx KEYS.txt
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from convert_text_detector import Graph, rewrite_clips, split_depthwise  # noqa: E402

HEIGHT = 48
WIDTHS = (320, 640)


def shapes_at(model, width):
    """Every tensor's shape when the input is 1 x 3 x HEIGHT x width: the graph run once on zeros
    by onnx's reference evaluator (about a second; onnx's shape inference stops at the first
    Reshape whose target is computed)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    known = {o.name for o in m.graph.output}
    for n in m.graph.node:
        for o in n.output:
            if o not in known:
                m.graph.output.append(helper.make_empty_tensor_value_info(o))
                known.add(o)
    names = [o.name for o in m.graph.output]
    values = ReferenceEvaluator(m).run(None, {m.graph.input[0].name: np.zeros((1, 3, HEIGHT, width), np.float32)})
    return {n: list(v.shape) for n, v in zip(names, values)}


def varying_target(name, a, b):
    """A Reshape target from the shapes `a` and `b` of one tensor at two widths: the batch 1, the
    one entry that differs -1."""
    if len(a) != len(b) or a[0] != 1 or b[0] != 1:
        sys.exit(f"{name}: shapes {a} and {b} are not batch-1 shapes of one rank")
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    if len(differ) != 1:
        sys.exit(f"{name}: shapes {a} and {b} differ in {len(differ)} axes, not one")
    target = list(a)
    target[differ[0]] = -1
    return np.array(target, dtype=np.int64)


def rewrite(model):
    G = Graph(model)
    g = G.g
    narrow, wide = (shapes_at(model, w) for w in WIDTHS)
    new_nodes = []
    counts = dict(reshape=0, squeeze=0, reducemean=0, perchannel=0, depthwise=0)
    for node in g.node:
        op = node.op_type
        if op == "Reshape" and node.input[1] not in G.consts:
            out = node.output[0]
            node.input[1] = G.constant(varying_target(out, narrow[out], wide[out]), "shape")
            counts["reshape"] += 1
        elif op == "Squeeze":
            out = node.output[0]
            target = G.constant(varying_target(out, narrow[out], wide[out]), "shape")
            node.op_type = "Reshape"
            del node.attribute[:]
            node.input.append(target)
            counts["squeeze"] += 1
        elif op == "ReduceMean":
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            shape = narrow[node.input[0]]
            if list(attrs.get("axes", [])) not in ([-1], [len(shape) - 1]) or attrs.get("keepdims", 1) != 1:
                sys.exit(f"ReduceMean {node.name}: only the mean over the last axis, kept, is rewritten")
            c = shape[-1]
            column = G.constant(np.full((c, 1), 1.0 / c, dtype=np.float32), "mean")
            node.op_type = "MatMul"
            del node.attribute[:]
            node.input.append(column)
            counts["reducemean"] += 1
        elif op in ("Mul", "Add") and any(
            i in G.consts and G.consts[i].ndim == 1 and G.consts[i].size > 1 for i in node.input
        ):
            k = next(i for i in node.input if i in G.consts)
            x = next(i for i in node.input if i != k)
            shape = narrow.get(x)
            if shape is None or len(shape) != 3 or shape[2] != G.consts[k].size:
                sys.exit(f"{op} {node.name}: a per-channel constant on {shape}, not on [N, T, C]")
            c = G.consts[k].size
            turned, result = G.name("ntc_to_nct"), G.name("nct")
            scaled = G.constant(G.consts[k].reshape(1, c, 1).astype(G.consts[k].dtype), "perchannel")
            new_nodes.append(helper.make_node("Transpose", [x], [turned], perm=[0, 2, 1]))
            new_nodes.append(helper.make_node(op, [turned, scaled], [result]))
            new_nodes.append(helper.make_node("Transpose", [result], [node.output[0]], perm=[0, 2, 1]))
            counts["perchannel"] += 1
            continue
        elif op == "Conv":
            parts = split_depthwise(G, node)
            if parts:
                new_nodes += parts
                counts["depthwise"] += 1
                continue
        new_nodes.append(node)
    del g.node[:]
    g.node.extend(new_nodes)
    return counts


def write_keys(model, destination):
    """The model's characters (its `character` metadata, one per line), in class order from 1
    (class 0 is CTC's blank, the last class a space, as PaddleOCR decodes)."""
    meta = {p.key: p.value for p in model.metadata_props}
    if "character" not in meta:
        sys.exit("the model has no `character` metadata")
    keys = meta["character"].split("\n")
    if keys and keys[-1] == "":
        keys.pop()
    classes = model.graph.output[0].type.tensor_type.shape.dim[-1].dim_value
    if len(keys) + 2 != classes:
        sys.exit(f"{len(keys)} keys and {classes} classes: expected keys + blank + space")
    with open(destination, "w", encoding="utf-8", newline="\n") as f:
        for k in keys:
            if "\n" in k or k == "":
                sys.exit(f"key {k!r} cannot be written one per line")
            f.write(k + "\n")
    return len(keys)


def main():
    source, destination, keys_path = sys.argv[1], sys.argv[2], sys.argv[3]
    model = onnx.load(source)
    keys = write_keys(model, keys_path)
    del model.metadata_props[:]
    counts = rewrite(model)  # first: it runs the graph under the opset it declares
    clips = rewrite_clips(model)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for d, v in zip(dims, (1, 3, HEIGHT, WIDTHS[0])):
        d.Clear()
        d.dim_value = v
    for out in model.graph.output:
        for d in out.type.tensor_type.shape.dim:
            if not d.HasField("dim_value"):
                d.Clear()
    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx"):
            opset.version = 10
    g = model.graph
    used = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    kept = [n for n in g.node if not (n.op_type == "Constant" and n.output[0] not in used)]
    del g.node[:]
    g.node.extend(kept)
    inits = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(inits)
    del g.value_info[:]
    ordered = topological(g)
    del g.node[:]
    g.node.extend(ordered)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, destination)
    summary = ", ".join(f"{v} {k}" for k, v in counts.items())
    print(f"{destination}: {clips} Clip, {summary} rewritten; {keys} keys in {keys_path}")


def topological(g):
    """The nodes in an order where each comes after what it reads (the rewrites append)."""
    ready = {i.name for i in g.input} | {t.name for t in g.initializer} | {""}
    pending, ordered = list(g.node), []
    while pending:
        rest = []
        for n in pending:
            if all(i in ready for i in n.input):
                ordered.append(n)
                ready.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            sys.exit("the graph has a cycle or a missing input")
        pending = rest
    return ordered


if __name__ == "__main__":
    main()
