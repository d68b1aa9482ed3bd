#!/usr/bin/env python3
"""Writes a PP-OCR text-line recognizer's characters, one per line (`make text-recognizer`).

A PP-OCR recognizer exported to ONNX (PP-OCRv4's as the rapidocr wheels ship it) keeps its
character list only in the model's `character` metadata. FrameOCR reads the keys from a text file
beside the model (focr_recognize.h): class 0 of the output is CTC's blank, classes 1…K the K keys in
file order, class K + 1 a space (PaddleOCR's use_space_char). The model itself is installed as it
is: OpenVINO runs it unchanged.

Install-time only, in the venv of the Makefile's rapidocr-wheel (the onnx package).

Usage: recognizer_keys.py MODEL.onnx KEYS.txt
"""
import sys

import onnx


def write_keys(model, destination):
    """The model's characters in class order from 1; checks that keys + blank + space = classes."""
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
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, keys_path = sys.argv[1], sys.argv[2]
    keys = write_keys(onnx.load(source), keys_path)
    print(f"{keys_path}: {keys} keys of {source}")


if __name__ == "__main__":
    main()
