#!/usr/bin/env python3
"""Rewrites PP-OCRv4's text detector (ch_PP-OCRv4_det_infer.onnx, from the rapidocr-onnxruntime
wheel, Apache-2.0) into a graph OpenCV 4.6's ONNX importer reads; the weights are not touched.

OpenCV 4.6 (Debian 12) reads Clip only in its opset-10 form, with min and max as attributes,
and fails on the exported opset-12 graph (`parseClip ... node_proto.input_size() == 1`); onnxsim
keeps the three-input Clips and onnx's version converter has no Clip adapter below 11. So:
- every Clip's constant min and max inputs become attributes;
- every Resize(X, roi, scales) becomes the opset-10 Resize(X, scales) (mode nearest, as exported);
- every 5x5 depthwise convolution (eight of them) becomes four 3x3 ones summed (split_depthwise,
  exact: OpenCV 4.6 runs a 5x5 depthwise convolution about 30 times slower than a 3x3; the network
  at 1312x736 went from about 0.49 s to 0.45 s on one core of the 2-core machine);
- the opset is declared 10 and Constant nodes left unused are dropped;
- the result must pass onnx's full checker.
Run by `make text-detector` (Makefile), in a venv with the onnx package; Python is the build's
only, never the library's.

The same rewrite serves PP-OCR's text-angle classifier (ch_ppocr_mobile_v2.0_cls_infer.onnx, from
the same wheel; `make text-angle-classifier`), whose input must also be declared concrete
(--input 1,3,48,192: it flattens its pooled features through Shape, which OpenCV 4.6 refuses on a
dynamic shape).

Usage: convert_text_detector.py IN.onnx OUT.onnx [--input N,C,H,W]
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def rewrite_clips(model):
    """Every Clip whose constant min and max are inputs (opset 11 and later) gets them as
    attributes instead (its opset-10 form, which OpenCV 4.6 reads); returns how many. Shared with
    convert_text_recognizer.py."""
    graph = model.graph
    constants = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in graph.node if n.op_type == "Constant"}
    constants.update({t.name: numpy_helper.to_array(t) for t in graph.initializer})
    clips = 0
    for node in graph.node:
        if node.op_type == "Clip" and len(node.input) > 1:
            bounds = list(node.input[1:])
            del node.input[1:]
            for name, value in zip(("min", "max"), bounds):
                if value:
                    node.attribute.append(helper.make_attribute(name, float(constants[value])))
            clips += 1
    return clips


class Graph:
    """The graph's nodes with fresh names for what the rewrites add."""

    def __init__(self, model):
        self.model = model
        self.g = model.graph
        self.counter = 0
        self.consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in self.g.node if n.op_type == "Constant"}
        self.consts.update({t.name: numpy_helper.to_array(t) for t in self.g.initializer})

    def name(self, base):
        self.counter += 1
        return f"focr.{base}.{self.counter}"

    def constant(self, value, base="const"):
        n = self.name(base)
        self.g.initializer.append(numpy_helper.from_array(np.asarray(value), n))
        self.consts[n] = np.asarray(value)
        return n


def split_depthwise(G, node):
    """A 5x5 depthwise Conv (pads 2, no dilation, any stride) as four 3x3 ones over the kernel's
    corners (rows and columns 0-2 and 2-4, each weight in one of them), summed: the nodes that
    replace `node`, or None when it is not such a convolution. A 3x3 conv at kernel offset
    (dy, dx) with pads (2 - dy, 2 - dx, dy, dx) reads the same input pixels as the 5x5 one's rows
    dy..dy+2 and columns dx..dx+2, with the same output size at any stride. OpenCV 4.6 runs a 5x5
    depthwise convolution about 30 times slower than a 3x3 one; the sum is the same sums in
    another order (within float rounding). Shared with convert_text_recognizer.py."""
    if node.op_type != "Conv":
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    w = G.consts.get(node.input[1])
    if w is None or list(attrs.get("kernel_shape", [])) != [5, 5] or attrs.get("group", 1) != w.shape[0] \
            or w.shape[1] != 1 or list(attrs.get("pads", [])) != [2, 2, 2, 2] \
            or list(attrs.get("dilations", [1, 1])) != [1, 1]:
        return None
    bias = list(node.input[2:3])
    parts = []
    owned = np.zeros((5, 5), dtype=bool)
    for dy in (0, 2):
        for dx in (0, 2):
            k = np.zeros((w.shape[0], 1, 3, 3), dtype=w.dtype)
            for y in range(3):
                for x in range(3):
                    if not owned[dy + y, dx + x]:
                        owned[dy + y, dx + x] = True
                        k[:, :, y, x] = w[:, :, dy + y, dx + x]
            out = G.name("dw3x3")
            inputs = [node.input[0], G.constant(k, "dw3x3.w")] + (bias if not parts else [])
            parts.append(helper.make_node(
                "Conv", inputs, [out], kernel_shape=[3, 3], strides=list(attrs.get("strides", [1, 1])),
                group=int(attrs["group"]), pads=[2 - dy, 2 - dx, dy, dx], dilations=[1, 1]))
    assert owned.all()
    outs = [p.output[0] for p in parts]
    s1, s2 = G.name("dwsum"), G.name("dwsum")
    parts.append(helper.make_node("Add", [outs[0], outs[1]], [s1]))
    parts.append(helper.make_node("Add", [outs[2], outs[3]], [s2]))
    parts.append(helper.make_node("Add", [s1, s2], [node.output[0]]))
    return parts



def main():
    source, destination = sys.argv[1], sys.argv[2]
    model = onnx.load(source)
    graph = model.graph
    if sys.argv[3:4] == ["--input"]:
        shape = [int(v) for v in sys.argv[4].split(",")]
        for d, v in zip(graph.input[0].type.tensor_type.shape.dim, shape):
            d.Clear()
            d.dim_value = v
        for out in graph.output:
            for d in out.type.tensor_type.shape.dim:
                if not d.HasField("dim_value"):
                    d.Clear()
        del graph.value_info[:]
    clips = rewrite_clips(model)
    G = Graph(model)
    nodes, depthwise = [], 0
    for node in graph.node:
        parts = split_depthwise(G, node)
        depthwise += parts is not None
        nodes += parts or [node]
    del graph.node[:]
    graph.node.extend(nodes)
    resizes = 0
    for node in graph.node:
        if node.op_type == "Resize" and len(node.input) >= 3:
            attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            if attributes.get("mode", b"nearest") != b"nearest":
                sys.exit(f"Resize {node.name}: mode {attributes['mode']!r}, only nearest has an opset-10 form")
            scales = node.input[2]
            del node.input[1:]
            node.input.append(scales)
            kept = [a for a in node.attribute if a.name == "mode"]
            del node.attribute[:]
            node.attribute.extend(kept)
            resizes += 1
    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx"):
            opset.version = 10
    used = {i for n in graph.node for i in n.input} | {o.name for o in graph.output}
    kept = [n for n in graph.node if not (n.op_type == "Constant" and n.output[0] not in used)]
    del graph.node[:]
    graph.node.extend(kept)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, destination)
    print(f"{destination}: {clips} Clip, {resizes} Resize and {depthwise} 5x5 depthwise Conv nodes rewritten, opset 10")


if __name__ == "__main__":
    main()
