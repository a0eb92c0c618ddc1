#!/usr/bin/python3
"""Validates autotune --json outputs against docs/schema/: each FILE's
"schema" field ("autotune.tune/1") names its schema (tune.schema.json).
Usage: validate_json.py SCHEMA_DIR FILE...  Exit 0 if all are valid; else
1, naming the file, the path in it and what is wrong."""
import json
import os
import sys

import jsonschema


def main():
    schema_dir, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        kind = doc.get("schema", "") if isinstance(doc, dict) else ""
        if not kind.startswith("autotune.") or "/" not in kind:
            print("%s: no autotune schema field" % path)
            bad += 1
            continue
        name = kind[len("autotune."):].split("/")[0]
        with open(os.path.join(schema_dir, name + ".schema.json")) as f:
            schema = json.load(f)
        v = jsonschema.Draft202012Validator(schema)
        for err in v.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            print("%s: %s: %s" % (path, where or "(top)", err.message))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
