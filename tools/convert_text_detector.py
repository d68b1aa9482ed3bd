#!/usr/bin/env python3
"""Rewrites PP-OCRv4's text detector (ch_PP-OCRv4_det_infer.onnx, from the rapidocr-onnxruntime
wheel, Apache-2.0) into a graph OpenCV 4.6's ONNX importer reads; the weights are not touched.

OpenCV 4.6 (Debian 12) reads Clip only in its opset-10 form, with min and max as attributes,
and fails on the exported opset-12 graph (`parseClip ... node_proto.input_size() == 1`); onnxsim
keeps the three-input Clips and onnx's version converter has no Clip adapter below 11. So:
- every Clip's constant min and max inputs become attributes;
- every Resize(X, roi, scales) becomes the opset-10 Resize(X, scales) (mode nearest, as exported);
- the opset is declared 10 and Constant nodes left unused are dropped;
- the result must pass onnx's full checker.
Run by `make text-detector` (Makefile), in a venv with the onnx package; Python is the build's
only, never the library's.

Usage: convert_text_detector.py IN.onnx OUT.onnx
"""
import sys

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


def main():
    source, destination = sys.argv[1], sys.argv[2]
    model = onnx.load(source)
    graph = model.graph
    clips = rewrite_clips(model)
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
    print(f"{destination}: {clips} Clip and {resizes} Resize nodes rewritten, opset 10")


if __name__ == "__main__":
    main()
